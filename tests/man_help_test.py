#!/usr/bin/env python3
"""man_help_test.py - the man page and `tco --help` document the same options and subcommands.

Usage: man_help_test.py TCO_BINARY PATH/TO/tco.1

From `tco --help` it takes every long option (--name, anywhere in the text), the short
option paired with it ("-s, --scenario"), and every subcommand: the words after `tco` in a
Usage line up to the first option or argument ("tco quotes check FILE.csv..." gives
"quotes check"), and the entries of its Commands: list.

From the man page (escapes \\- \\f? \\& undone) it takes the tag line of every .TP paragraph,
the SYNOPSIS, and the COMMANDS section.  It then checks, printing every miss:
  - each long option of --help is the tag of a .TP paragraph, with its short option there too;
  - each long option in a tag or the SYNOPSIS of the man page is in --help;
  - each subcommand of --help is in the SYNOPSIS (".B tco quotes check") and is the tag of a
    paragraph of COMMANDS, and each subcommand of the man page is in --help;
  - each subcommand's own help (`tco advise --help`, `tco quotes --help`, ...) starts with its own usage
    line, is not the general help, says its exit status, lists every option of its COMMANDS paragraph,
    and each option it lists is documented on the page (its COMMANDS paragraph or OPTIONS).
Exit 0 when they agree, 1 (with the list) when not.
"""
import re
import subprocess
import sys

LONG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def help_facts(text):
    """(long options, {long: short}, subcommands of the Usage block and the Commands list) of --help."""
    longs = set(LONG.findall(text))
    shorts = {}
    for m in re.finditer(r"^\s+(-[A-Za-z]), (--[a-z][a-z0-9-]*)", text, re.M):
        shorts[m.group(2)] = m.group(1)
    subs = set()
    usage = re.search(r"^Usage:.*?\n\n", text, re.M | re.S)
    for line in usage.group(0).splitlines() if usage else []:
        m = re.match(r"^(?:Usage:)?\s+tco\s+(.*)$", line)
        if m:
            sub = leading_words(m.group(1))
            if sub:
                subs.add(sub)
    block = re.search(r"^Commands:\n((?:  .*\n|\s+.*\n)*?)\n", text, re.M)
    if block:
        for line in block.group(1).splitlines():
            if re.match(r"^  \S", line):
                sub = leading_words(line.strip())
                if sub:
                    subs.add(sub)
    return longs, shorts, subs


def leading_words(s):
    """The lower-case words at the start of @s, before an option, an argument or a description."""
    words = []
    for w in s.split():
        if not re.fullmatch(r"[a-z][a-z-]*", w):
            break
        words.append(w)
        if len(words) == 2:
            break
    # "quotes check FILE" -> "quotes check"; "init DIR" -> "init"; a description after two spaces
    # is not reached because an argument in capitals comes first.
    return " ".join(words)


def unescape(line):
    line = re.sub(r"\\f(\[[^]]*\]|.)", "", line)
    line = line.replace("\\-", "-").replace("\\&", "").replace("\\ ", " ").replace('"', "")
    return line


def man_facts(text):
    """(tag lines, synopsis text, subcommands of SYNOPSIS, tags of COMMANDS) of the man page."""
    lines = text.splitlines()
    tags = []
    sections = {}
    current = None
    for i, line in enumerate(lines):
        if line.startswith(".SH"):
            current = line[3:].strip().strip('"')
            sections[current] = []
            continue
        if current is not None:
            sections[current].append(line)
        if line.strip() == ".TP" and i + 1 < len(lines):
            tags.append((current, unescape(re.sub(r"^\.[A-Z]+\s*", "", lines[i + 1]))))
    synopsis = [unescape(l) for l in sections.get("SYNOPSIS", [])]
    # One SYNOPSIS form runs from a ".B tco..." line to the next ".br".
    forms, form = [], []
    for raw, line in zip(sections.get("SYNOPSIS", []), synopsis):
        if raw.strip() == ".br":
            forms.append(" ".join(form))
            form = []
        else:
            form.append(re.sub(r"^\.[A-Z]+\s*", "", line))
    forms.append(" ".join(form))
    syn_subs = set()
    for f in forms:
        m = re.match(r"^\s*tco\s+(.*)$", f)
        if m and leading_words(m.group(1)):
            syn_subs.add(leading_words(m.group(1)))
    cmd_subs = {leading_words(tag) for sec, tag in tags if sec == "COMMANDS"} - {""}
    return tags, " ".join(synopsis), syn_subs, cmd_subs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tco, page = sys.argv[1], sys.argv[2]
    help_text = subprocess.run([tco, "--help"], check=True, capture_output=True, text=True).stdout
    with open(page, encoding="utf-8") as f:
        man_text = f.read()
    longs, shorts, subs = help_facts(help_text)
    tags, synopsis, syn_subs, cmd_subs = man_facts(man_text)
    problems = []
    if not longs or not subs:
        problems.append(f"--help: found {len(longs)} long options and {len(subs)} subcommands; expected some of each")
    tag_longs = {}
    for _, tag in tags:
        for opt in LONG.findall(tag):
            tag_longs.setdefault(opt, []).append(tag)
    for opt in sorted(longs):
        if opt not in tag_longs:
            problems.append(f"{page}: no .TP paragraph documents {opt} (it is in tco --help)")
        elif opt in shorts and not any(re.search(rf"(?<![\w-]){shorts[opt]}(?![\w-])", t) for t in tag_longs[opt]):
            problems.append(f"{page}: the paragraph of {opt} lacks its short form {shorts[opt]} (tco --help: "
                            f"{shorts[opt]}, {opt})")
    man_longs = set(tag_longs) | set(LONG.findall(synopsis))
    for opt in sorted(man_longs - longs):
        problems.append(f"{page}: documents {opt}, which tco --help does not list")
    for sub in sorted(subs):
        if sub not in syn_subs:
            problems.append(f"{page}: the SYNOPSIS lacks 'tco {sub}' (it is in tco --help)")
        if sub not in cmd_subs:
            problems.append(f"{page}: COMMANDS has no paragraph for '{sub}' (it is in tco --help)")
    for sub in sorted((syn_subs | cmd_subs) - subs):
        problems.append(f"{page}: documents the subcommand '{sub}', which tco --help does not list")
    # Each subcommand's own help (tco SUB --help): its own usage naming it, not the general help, and the
    # options of the man page's COMMANDS paragraph for it, each of its options documented on the page.
    option_tags = {opt for sec, tag in tags if sec == "OPTIONS" for opt in LONG.findall(tag)}
    for sub in sorted(subs):
        word = sub.split()[0]
        own = subprocess.run([tco, word, "--help"], capture_output=True, text=True)
        usage = own.stdout.splitlines()[0] if own.stdout else ""
        if own.returncode != 0 or not re.match(rf"Usage: tco (\[--root DIR\] )?{re.escape(sub)}\b", usage):
            problems.append(f"tco {word} --help: exit {own.returncode}, first line {usage!r}; expected its own usage")
            continue
        if "--compare" in own.stdout:
            problems.append(f"tco {word} --help prints the general help (it names --compare)")
        if not re.search(r"^Exit status: 0", own.stdout, re.M):
            problems.append(f"tco {word} --help gives no exit status")
        own_longs = set(LONG.findall(own.stdout))
        paragraph = {opt for sec, tag in tags if sec == "COMMANDS" and leading_words(tag) == sub
                     for opt in LONG.findall(tag)}
        for opt in sorted(paragraph - own_longs):
            problems.append(f"tco {word} --help lacks {opt} (the man page's COMMANDS paragraph of '{sub}' has it)")
        for opt in sorted(own_longs - paragraph - option_tags):
            problems.append(f"tco {word} --help lists {opt}, which the man page does not document")
    for p in problems:
        print("FAIL:", p)
    print(f"man_help: {len(longs)} long options ({', '.join(sorted(longs))}), "
          f"{len(subs)} subcommands ({', '.join(sorted(subs))}); {len(problems)} problem{'' if len(problems) == 1 else 's'}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
