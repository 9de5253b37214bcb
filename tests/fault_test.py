#!/usr/bin/env python3
"""fault_test.py - planted files and full disks never make tco write anything but the workbook.

1. Symlinks planted at every name an attacker could predict (the old temporary
   .tco-PID.tmp of the very process, its neighbours, NAME.tmp, .NAME.tmp), to
   an existing victim and to a missing one: the victim keeps its bytes and
   mode, no missing victim appears, the links stay as they were, and the
   target is a regular file, byte-identical to the same workbook written
   normally.  A symlink or FIFO *at* the target is refused (exit 73).
2. A FIFO planted at the old temporary name: tco finishes (no hang).
3. Stale temporaries: only this user's regular files with a temporary's exact
   name, a dead PID and no lock holder are removed; links, FIFOs, other users'
   files, locked files and other names stay.
4. A full /tmp (a private mount namespace with a 16 KiB tmpfs on /tmp): the
   workbook is still byte-identical to the normal one; with the output in the
   full /tmp itself: exit 73, the old workbook byte-identical.
5. A full output folder (a small tmpfs with an old workbook, filled to several
   levels): exit 73, tco's one-line message and nothing else on stderr (no
   libxlsxwriter "[ERROR]" line), the old workbook byte-identical, no temporary left.
6. Owner and mode kept: a 0600 workbook of uid 1000 replaced by a root run keeps
   1000:1000 and 0600; a new workbook gets 0666 minus the umask; a run as uid
   1000 that cannot keep a group clears the group bits; uid 1000 can write into
   a folder it may not list (0733).
Also: with stderr closed (2>&-) the workbook is whole and nothing else appears.
Usage: fault_test.py TCO_BINARY PROJECT_ROOT.  Last line: "N passed, N failed".
Needs root for 4-6 (CI runs as root); without root or unshare those parts say
why they are skipped.
"""
import fcntl, os, shutil, stat, subprocess, sys, tempfile, zipfile
import xml.dom.minidom

tco, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
from tally import check, finish
is_root = os.geteuid() == 0


def run(args, timeout=60, **kw):
    """Run tco ARGS; returns (exit code, stderr text); a hang counts as exit -999."""
    try:
        p = subprocess.run([tco, "--root", root] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, **kw)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -999, "timed out after %ds" % timeout


def sh(script, timeout=60):
    """Run a shell script; returns (exit code, stdout+stderr)."""
    try:
        p = subprocess.run(["sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -999, "timed out after %ds" % timeout


def opens(path):
    """True if PATH is a regular file holding a complete workbook: a sound zip, every XML part parses."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        with zipfile.ZipFile(path) as z:
            if z.testzip() is not None or "xl/workbook.xml" not in z.namelist():
                return False
            for n in z.namelist():
                if n.endswith((".xml", ".rels")):
                    xml.dom.minidom.parseString(z.read(n))
        return True
    except Exception:
        return False


def read(path):
    with open(path, "rb") as f:
        return f.read()


def temporaries(d):
    return sorted(f for f in os.listdir(d) if f.startswith(".tco-") or f.startswith("tmp."))


def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


work = tempfile.mkdtemp(prefix="fault-", dir=os.getcwd())  # not under /tmp: part 4 hides /tmp
os.chmod(work, 0o755)  # part 6 runs tco as uid 1000 in a folder inside
try:
    ref_path, old_path = os.path.join(work, "reference.xlsx"), os.path.join(work, "old.xlsx")
    rc, err = run(["--scenario", "cluster32", "--out", ref_path])
    check(rc == 0 and opens(ref_path), "the reference workbook is written: %d %s" % (rc, err))
    rc, err = run(["--scenario", "cluster4", "--out", old_path])
    check(rc == 0 and opens(old_path), "the old workbook is written: %d %s" % (rc, err))
    new, old = read(ref_path), read(old_path)
    check(new != old, "the old and new workbooks differ")

    # 1. Planted symlinks at predictable names.
    for replacing in (False, True):
        d = os.path.join(work, "links-%d" % replacing)
        os.mkdir(d)
        victim, missing = os.path.join(work, "victim-%d" % replacing), os.path.join(work, "missing-%d" % replacing)
        with open(victim, "wb") as f:
            f.write(b"precious\n")
        os.chmod(victim, 0o640)
        target = os.path.join(d, "book.xlsx")
        if replacing:
            shutil.copyfile(old_path, target)
            os.chmod(target, 0o604)
        names = '.tco-$$.tmp .tco-$(($$+1)).tmp .tco-$(($$+2)).tmp .tco-$(($$-1)).tmp book.xlsx.tmp .book.xlsx.tmp'
        script = ('cd "%s" && for n in %s; do ln -s "%s" "$n"; done && ln -s "%s" .tco-$$-dangling.tmp && '
                  'ln -s "%s" ".tco-$(($$+3)).tmp" && exec "%s" --root "%s" --scenario cluster32 --out "%s"'
                  % (d, names, victim, missing, missing, tco, root, target))
        rc, out = sh(script)
        check(rc == 0, "tco succeeds beside planted symlinks (replacing=%s): %d %s" % (replacing, rc, out))
        check(read(victim) == b"precious\n", "the victim's bytes are unchanged (replacing=%s)" % replacing)
        check(stat.S_IMODE(os.stat(victim).st_mode) == 0o640, "the victim's mode is unchanged")
        check(not os.path.lexists(missing), "no file appears at a dangling link's target")
        links = [f for f in os.listdir(d) if f != "book.xlsx"]
        check(len(links) == 8 and all(os.path.islink(os.path.join(d, f)) for f in links),
              "the planted links are still links, nothing else was added: %s" % sorted(os.listdir(d)))
        check(all(os.readlink(os.path.join(d, f)) in (victim, missing) for f in links), "the links point where they did")
        check(stat.S_ISREG(os.lstat(target).st_mode) and read(target) == new,
              "the target is a regular file with the new workbook (replacing=%s)" % replacing)
        if replacing:
            check(stat.S_IMODE(os.stat(target).st_mode) == 0o604, "the replaced workbook's mode 0604 is kept")
    # A symlink or FIFO at the target itself is refused, quickly.
    d = os.path.join(work, "at-target")
    os.mkdir(d)
    victim = os.path.join(work, "victim-target")
    with open(victim, "wb") as f:
        f.write(b"precious\n")
    os.symlink(victim, os.path.join(d, "link.xlsx"))
    rc, err = run(["--scenario", "cluster32", "--out", os.path.join(d, "link.xlsx")])
    check(rc == 73 and "link.xlsx: exists and is not a regular file" in err and read(victim) == b"precious\n",
          "a symlink at the target is refused, its target untouched: %d %s" % (rc, err))
    os.mkfifo(os.path.join(d, "fifo.xlsx"))
    rc, err = run(["--scenario", "cluster32", "--out", os.path.join(d, "fifo.xlsx")], timeout=30)
    check(rc == 73 and "fifo.xlsx: exists and is not a regular file" in err, "a FIFO at the target is refused: %d %s" % (rc, err))
    check(temporaries(d) == [], "no temporary left after a refusal: %s" % temporaries(d))

    # 2. A FIFO at the old temporary name.
    d = os.path.join(work, "fifo")
    os.mkdir(d)
    target = os.path.join(d, "book.xlsx")
    shutil.copyfile(old_path, target)
    rc, out = sh('cd "%s" && mkfifo .tco-$$.tmp .tco-$(($$+1)).tmp && exec "%s" --root "%s" '
                 '--scenario cluster32 --out "%s"' % (d, tco, root, target), timeout=30)  # exec: the PID is tco's
    check(rc == 0, "tco finishes beside planted FIFOs: %d %s" % (rc, out))
    check(read(target) == new, "the FIFO run writes the new workbook")
    fifos = [f for f in os.listdir(d) if f != "book.xlsx"]
    check(len(fifos) == 2 and all(stat.S_ISFIFO(os.lstat(os.path.join(d, f)).st_mode) for f in fifos),
          "the FIFOs stay FIFOs, nothing else is left: %s" % sorted(os.listdir(d)))

    # stderr closed: nothing of tco's lands on fd 2, the workbook is whole.
    d = os.path.join(work, "closed-stderr")
    os.mkdir(d)
    target = os.path.join(d, "book.xlsx")
    rc, out = sh('"%s" --root "%s" --scenario cluster32 --out "%s" >/dev/null 2>&-' % (tco, root, target))
    check(rc == 0 and read(target) == new and os.listdir(d) == ["book.xlsx"],
          "with stderr closed the workbook is whole and alone: %d %s %s" % (rc, out, os.listdir(d)))

    # 3. Stale temporaries.
    d = os.path.join(work, "stale")
    os.mkdir(d)
    pid = dead_pid()
    victim = os.path.join(work, "victim-stale")
    with open(victim, "wb") as f:
        f.write(b"precious\n")
    def plant(name, data=b"stale"):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        return name
    gone = [plant(".tco-%d-AAAAAAAAAAAA.tmp" % pid), plant(".tco-%d.tmp" % pid)]
    kept = [plant(".tco-%d-short.tmp" % pid), plant(".tco-%d-AAAAAAAAAAAA.tmp.x" % pid),
            plant(".tco-%d-BBBBBBBBBBBB.tmp" % os.getpid()), plant("tmp.0123456789")]
    os.symlink(victim, os.path.join(d, ".tco-%d-CCCCCCCCCCCC.tmp" % pid))
    os.mkfifo(os.path.join(d, ".tco-%d-DDDDDDDDDDDD.tmp" % pid))
    kept += [".tco-%d-CCCCCCCCCCCC.tmp" % pid, ".tco-%d-DDDDDDDDDDDD.tmp" % pid]
    locked = plant(".tco-%d-EEEEEEEEEEEE.tmp" % pid)  # a live writer in another PID namespace holds its lock
    lock = open(os.path.join(d, locked), "rb")
    fcntl.flock(lock, fcntl.LOCK_EX)
    kept.append(locked)
    if is_root:
        other = plant(".tco-%d-FFFFFFFFFFFF.tmp" % pid)
        os.chown(os.path.join(d, other), 1000, 1000)
        kept.append(other)
    rc, err = run(["--scenario", "cluster32", "--out", os.path.join(d, "book.xlsx")], timeout=30)
    lock.close()
    check(rc == 0 and read(os.path.join(d, "book.xlsx")) == new, "tco runs beside stale temporaries: %d %s" % (rc, err))
    left = set(os.listdir(d))
    check(not any(g in left for g in gone), "a dead run's temporaries are removed: %s" % sorted(left))
    check(all(k in left for k in kept), "links, FIFOs, locked, other users' and other names stay: %s" % sorted(left))
    check(read(victim) == b"precious\n", "the stale link's victim is untouched")

    # 4. and 5. need a private mount namespace.
    can_mount = is_root and sh("unshare -m sh -c 'mount -t tmpfs -o size=16k tmpfs /mnt'")[0] == 0
    if not can_mount:
        print("SKIP: full-disk cases need root and unshare -m with mount permitted (CI runs as root)")
    else:
        # Part 4 hides /tmp under a small tmpfs: a checkout, build or work folder under /tmp stays
        # reachable through a bind mount of the real /tmp made first, outside it (alt).
        alt = tempfile.mkdtemp(prefix="tco-fault-tmp-", dir="/run" if os.access("/run", os.W_OK) else "/var/tmp")
        def via(path):
            path = os.path.realpath(path)
            return alt + path[4:] if path == "/tmp" or path.startswith("/tmp/") else path
        hide_tmp = "mount --bind /tmp \"%s\" && mount -t tmpfs -o size=%%s tmpfs /tmp" % alt
        # 4a. /tmp full, the output elsewhere: the workbook is still whole, and the same bytes.
        d = os.path.join(work, "full-tmp")
        os.mkdir(d)
        target = os.path.join(d, "book.xlsx")
        shutil.copyfile(old_path, target)
        rc, out = sh("unshare -m sh -c '%s && dd if=/dev/zero of=/tmp/fill bs=1k "
                     "2>/dev/null; exec \"%s\" --root \"%s\" --scenario cluster32 --out \"%s\"'"
                     % (hide_tmp % "16k", via(tco), via(root), via(target)))
        check(rc == 0, "tco succeeds with /tmp full: %d %s" % (rc, out))
        # The same run with /tmp not full, through the same paths (the workbook names its root's files).
        same = os.path.join(work, "full-tmp-same.xlsx")
        rc2, out2 = sh("unshare -m sh -c 'mount --bind /tmp \"%s\" && exec \"%s\" --root \"%s\" --scenario cluster32 "
                       "--out \"%s\"'" % (alt, via(tco), via(root), via(same)))
        check(rc2 == 0 and read(target) == read(same) and opens(target),
              "with /tmp full the workbook is whole and byte-identical: %d %s" % (rc2, out2))
        os.unlink(same)
        check(os.listdir(d) == ["book.xlsx"], "nothing else is left: %s" % os.listdir(d))
        # 4b. The output in the full /tmp itself: exit 73, the old workbook unchanged.
        res = os.path.join(work, "full-tmp-result")
        os.mkdir(res)
        rc, out = sh("unshare -m sh -c '%s && cp \"%s\" /tmp/book.xlsx && "
                     "(dd if=/dev/zero of=/tmp/fill bs=1k 2>/dev/null; true) && "
                     "\"%s\" --root \"%s\" --scenario cluster32 --out /tmp/book.xlsx 2>\"%s/err\"; echo $? >\"%s/rc\"; "
                     "cmp -s \"%s\" /tmp/book.xlsx; echo $? >\"%s/cmp\"; ls -a /tmp >\"%s/ls\"'"
                     % (hide_tmp % "128k", via(old_path), via(tco), via(root), via(res), via(res), via(old_path),
                        via(res), via(res)))
        err = open(os.path.join(res, "err")).read()
        check(open(os.path.join(res, "rc")).read().strip() == "73", "a full /tmp as the output folder gives exit 73: %s" % err)
        check(open(os.path.join(res, "cmp")).read().strip() == "0", "the old workbook in the full /tmp is byte-identical")
        check(open(os.path.join(res, "ls")).read().split() == [".", "..", "book.xlsx", "fill"],
              "nothing is left in the full /tmp: %s" % open(os.path.join(res, "ls")).read().split())
        check(err.startswith("tco: /tmp/book.xlsx: ") and "[ERROR]" not in err, "tco's message names the file: %s" % err)
        os.rmdir(alt)  # the bind mount lived in the namespaces only

        # 5. A full output folder, filled to several levels.
        for free_kb in (0, 4, 12, 24, 40):
            d = os.path.join(work, "full-%d" % free_kb)
            os.mkdir(d)
            script = ("mount -t tmpfs -o size=192k tmpfs \"%s\" && cp \"%s\" \"%s/book.xlsx\" && "
                      "(dd if=/dev/zero of=\"%s/fill\" bs=1k 2>/dev/null; true) && "
                      "truncate -s -%dk \"%s/fill\" && "
                      "\"%s\" --root \"%s\" --scenario cluster32 --out \"%s/book.xlsx\" 2>\"%s.err\"; echo $? >\"%s.rc\"; "
                      "cmp -s \"%s\" \"%s/book.xlsx\"; echo $? >\"%s.cmp\"; ls -a \"%s\" >\"%s.ls\""
                      % (d, old_path, d, d, free_kb, d, tco, root, d, d, d, old_path, d, d, d, d))
            rc, out = sh("unshare -m sh -c '%s'" % script.replace("'", "'\\''"))
            err = open(d + ".err").read()
            what = "output folder full (%d KiB free)" % free_kb
            check(open(d + ".rc").read().strip() == "73", "%s: exit 73: %s %s" % (what, out, err))
            check(open(d + ".cmp").read().strip() == "0", "%s: the old workbook is byte-identical" % what)
            check(open(d + ".ls").read().split() == [".", "..", "book.xlsx", "fill"],
                  "%s: no temporary left: %s" % (what, open(d + ".ls").read().split()))
            lines = err.splitlines()
            check(len(lines) == 1 and lines[0].startswith("tco: %s/book.xlsx: " % d) and "[ERROR]" not in err,
                  "%s: tco's own message alone, naming the file: %r" % (what, err))
            check("No space left on device" in err or "damaged" in err, "%s: the message names the cause: %r" % (what, err))

    # 6. Owner and mode kept.
    if not is_root:
        print("SKIP: owner cases need root (CI runs as root)")
    else:
        d = os.path.join(work, "owner")
        os.mkdir(d)
        os.chmod(d, 0o1777)  # a shared folder
        for mode in (0o600, 0o640, 0o664):
            target = os.path.join(d, "book-%o.xlsx" % mode)
            shutil.copyfile(old_path, target)
            os.chown(target, 1000, 1000)
            os.chmod(target, mode)
            rc, err = run(["--scenario", "cluster32", "--out", target])
            st = os.lstat(target)
            check(rc == 0 and read(target) == new, "a root run replaces uid 1000's %o workbook: %d %s" % (mode, rc, err))
            check((st.st_uid, st.st_gid) == (1000, 1000), "the owner 1000:1000 is kept (mode %o): %d:%d"
                  % (mode, st.st_uid, st.st_gid))
            check(stat.S_IMODE(st.st_mode) == mode, "the mode %o is kept: %o" % (mode, stat.S_IMODE(st.st_mode)))
        # A new workbook: 0666 minus the umask, owned by whoever runs tco.
        target = os.path.join(d, "new.xlsx")
        rc, err = run(["--scenario", "cluster32", "--out", target], preexec_fn=lambda: os.umask(0o027))
        st = os.lstat(target)
        check(rc == 0 and stat.S_IMODE(st.st_mode) == 0o640 and st.st_uid == 0,
              "a new workbook under umask 027 is 0640 and root's: %o %d" % (stat.S_IMODE(st.st_mode), st.st_uid))
        check(temporaries(d) == [], "no temporary left in the shared folder: %s" % temporaries(d))
        # As uid 1000: its own group is kept; a group it is not in cannot be, and then gets no access.
        can_run = shutil.which("setpriv") and sh("setpriv --reuid=1000 --regid=1000 --clear-groups test -x '%s' -a -r "
                                                 "'%s/templates'" % (tco, root))[0] == 0
        if not can_run:
            print("SKIP: uid 1000 cannot run %s (or setpriv is missing)" % tco)
        else:
            # A drop box (root's folder, mode 0733: uid 1000 may write but not list).
            drop = os.path.join(work, "dropbox")
            os.mkdir(drop)
            os.chmod(drop, 0o733)
            rc, out = sh("setpriv --reuid=1000 --regid=1000 --clear-groups \"%s\" --root \"%s\" --scenario cluster32 "
                         "--out \"%s/book.xlsx\" >/dev/null" % (tco, root, drop))
            check(rc == 0 and read(os.path.join(drop, "book.xlsx")) == new and os.listdir(drop) == ["book.xlsx"]
                  and os.lstat(os.path.join(drop, "book.xlsx")).st_uid == 1000,
                  "uid 1000 writes into a folder it cannot list: %d %s %s" % (rc, out, os.listdir(drop)))
            for gid, mode, want in ((1000, 0o660, 0o660), (50, 0o664, 0o604)):
                target = os.path.join(d, "user-%d.xlsx" % gid)
                shutil.copyfile(old_path, target)
                os.chown(target, 1000, gid)
                os.chmod(target, mode)
                rc, out = sh("setpriv --reuid=1000 --regid=1000 --clear-groups \"%s\" --root \"%s\" --scenario cluster32 "
                             "--out \"%s\" >/dev/null" % (tco, root, target))
                st = os.lstat(target)
                check(rc == 0 and read(target) == new, "uid 1000 replaces its workbook (group %d): %d %s" % (gid, rc, out))
                check((st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (1000, 1000, want),
                      "uid 1000's workbook of group %d, mode %o, becomes 1000:1000 mode %o: %d:%d %o"
                      % (gid, mode, want, st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)))
finally:
    shutil.rmtree(work, ignore_errors=True)

finish()
