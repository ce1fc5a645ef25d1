#!/usr/bin/env python3
"""The length of every function in the product code, and the check that none grows past 80 lines.

  python3 ci/function_lengths.py            the functions over 80 lines, longest first
  python3 ci/function_lengths.py --check    fails when a function over 80 lines is not listed in
                                            ci/long-functions.txt, is longer than listed there, or
                                            is listed but no longer over 80 lines

A function is counted from the first line of its declaration to its closing brace: the body of
every brace at namespace or class level whose head ends like a function's (a parameter list,
then const, noexcept, override, final, a trailing return type or a constructor's initializers).
Comments and string literals (raw ones too) are blanked first, so their braces do not count.
ci/long-functions.txt lists the functions allowed to be longer, "path function lines" a line, each
under a comment saying why it must be one function: one may shrink, never grow, and one split
below the limit leaves the list.
"""
import os
import re
import sys

# The tree to read: the checkout, or another (the script's own test plants one).
ROOT = os.environ.get("FUNCTION_LENGTHS_ROOT") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
PRODUCT = ["core", "harness", "collectors", "bridge", "workloads", "oracle"]
LIMIT = 80
LEDGER = os.path.join(ROOT, "ci", "long-functions.txt")

RAW = re.compile(r'R"([^()\\ ]{0,16})\(')


def blank(text):
    """The text with comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and RAW.match(text, i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            delim = RAW.match(text, i).group(1)
            end = text.find(")" + delim + '"', i)
            j = n if end < 0 else end + len(delim) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    # Preprocessor lines (and their continuations) are no part of any head.
    lines = "".join(out).split("\n")
    directive = False
    for k, line in enumerate(lines):
        if directive or line.lstrip().startswith("#"):
            directive = line.rstrip().endswith("\\")
            lines[k] = " " * len(line)
    return "\n".join(lines)


FUNCTION_HEAD = re.compile(
    r"\)\s*(const\s*)?(noexcept(\s*\([^()]*\))?\s*)?(override\s*|final\s*)*(->\s*[\w:<>,\s*&]+)?$")
NAME = re.compile(r"([~\w:]+(?:<[^<>]*>)?|operator\s*[^\s(]+)\s*\($")


def functions(path):
    """(first line, last line, name) of each function body at namespace or class level."""
    text = blank(open(path, encoding="utf-8", errors="replace").read())
    stack = []  # True: a scope whose braces may hold functions (namespace, class, file)
    head_start = 0
    found = []
    for i, c in enumerate(text):
        if c in ";{}" and (not stack or stack[-1][0]):
            head = text[head_start:i] if c == "{" else ""
        if c == "{":
            scoped = not stack or stack[-1][0]
            if scoped:
                h = head.strip()
                # A class's head, template parameters left out: template <class T> is no class.
                kind = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", h.split("(")[0]))
                declared = re.search(r"\b(class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(\w+)", kind)
                if declared:  # its members' names are qualified with it
                    stack.append((True, None, declared.group(2)))
                elif re.search(r"\b(namespace|enum)\b", kind) or h.startswith("extern"):
                    stack.append((True, None, None))
                elif FUNCTION_HEAD.search(h) or re.search(r"\)\s*:\s*[\s\S]*\)$", h):
                    first = text.count("\n", 0, head_start + (len(head) - len(head.lstrip()))) + 1
                    call = h[: h.find("(", h.find("operator") + 1 if "operator" in h else 0) + 1]
                    m = NAME.search(call)
                    name = m.group(1) if m else "?"
                    owner = stack[-1][2] if stack else None
                    stack.append((False, (first, f"{owner}::{name}" if owner else name), None))
                else:
                    stack.append((False, None, None))
            else:
                stack.append((False, None, None))
            head_start = i + 1
        elif c == "}":
            if stack:
                _, fn, _ = stack.pop()
                if fn:
                    found.append((fn[0], text.count("\n", 0, i) + 1, fn[1]))
            head_start = i + 1
        elif c == ";" and (not stack or stack[-1][0]):
            head_start = i + 1
    return found


def census():
    rows = []
    for part in PRODUCT:
        for dirpath, _, files in os.walk(os.path.join(ROOT, part)):
            for f in sorted(files):
                if not f.endswith((".c", ".cc", ".cpp", ".h", ".hpp")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)
                for first, last, name in functions(path):
                    rows.append((last - first + 1, rel, first, name))
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    return rows


def ledger():
    listed = {}
    if os.path.exists(LEDGER):
        for line in open(LEDGER, encoding="utf-8"):
            line = line.split("#", 1)[0].strip()
            if line:
                path, name, lines = line.split()
                listed[(path, name)] = int(lines)
    return listed


def main():
    rows = census()
    long = [r for r in rows if r[0] > LIMIT]
    if "--check" not in sys.argv[1:]:
        print(f"{len(rows)} functions, {len(long)} over {LIMIT} lines; the longest:")
        for lines, rel, first, name in long or rows[:10]:
            print(f"{lines:5d}  {rel}:{first}  {name}")
        return 0
    listed = ledger()
    problems = []
    for lines, rel, first, name in long:
        allowed = listed.get((rel, name))
        if allowed is None:
            problems.append(f"{rel}:{first}: {name} is {lines} lines, over {LIMIT}: split it")
        elif lines > allowed:
            problems.append(f"{rel}:{first}: {name} grew to {lines} lines (listed at {allowed})")
    present = {(rel, name): lines for lines, rel, first, name in long}
    for (rel, name), allowed in sorted(listed.items()):
        if (rel, name) not in present:
            problems.append(f"{rel}: {name} is no longer over {LIMIT} lines: take it off "
                            f"ci/long-functions.txt")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"function-lengths: {len(rows)} functions, {len(long)} over {LIMIT} lines, "
          f"{len(problems)} not allowed", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
