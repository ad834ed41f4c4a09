#!/usr/bin/env python3
"""Keeps README.md and docs/*.md honest (issue 41).

Two checks over every span in backticks (inline `code` and fenced ``` blocks):

  paths    a token that looks like a repository path (it starts with apps/,
           include/, src/, perf/, tests/, docs/, cmake/, fuzz/ or .ci/ and
           contains a '/', or it is setup.sh) must exist in the source tree.
           Tokens with '<' or '*' are placeholders (perf/case_<kernel>.cpp)
           and are skipped.
  options  a --option token must appear in the --help output of one of the
           programs given with --program, or in `setup.sh --help`. Kokkos'
           own arguments count where a help text says it passes
           --kokkos-* through; a family written --expect-* in the docs
           needs one listed option that starts with --expect-.
  excerpts a fenced block whose first line is `// excerpt: PATH` must be
           PATH's code: its other lines (blank ones and `// ...` aside,
           compared without their indentation) appear in PATH in order, so
           the docs' copy of a tested example cannot drift from it.

Usage:
  python3 tests/docs_check.py --root SOURCE_DIR [--program EXE]...

Exit status 0 when every reference is found, 1 naming each that is not,
2 on a usage error. Standard library only.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

PATH_PREFIXES = ("apps/", "include/", "src/", "perf/", "tests/", "docs/", "cmake/", "fuzz/", ".ci/")
FENCE = re.compile(r"^\s*```")
INLINE = re.compile(r"(`+)(.+?)\1")
OPTION = re.compile(r"(?<![\w-])(--[A-Za-z][A-Za-z0-9-]*)(\*?)")
PATH_TOKEN = re.compile(r"[A-Za-z0-9_.<>*/+-]+")
PREFIX_FAMILY = re.compile(r"(--[A-Za-z][A-Za-z0-9-]*-)\*")


def backtick_spans(text):
    """Yields (line number, text) for every fenced block line and inline span."""
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            yield number, line
            continue
        for match in INLINE.finditer(line):
            yield number, match.group(2)


EXCERPT = re.compile(r"^\s*//\s*excerpt:\s*(\S+)\s*$")


def excerpts(text):
    """Yields (line number, path, lines) for every fenced block marked as an excerpt."""
    block, start = None, 0
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            if block is None:
                block, start = [], number
            else:
                if block and EXCERPT.match(block[0]):
                    yield start, EXCERPT.match(block[0]).group(1), block[1:]
                block = None
        elif block is not None:
            block.append(line)


def excerpt_missing(root, path, lines):
    """The first line of an excerpt not found (in order) in the file, or None."""
    try:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            source = [l.strip() for l in f.read().splitlines()]
    except OSError:
        return "the file %s cannot be read" % path
    at = 0
    for line in lines:
        wanted = line.strip()
        if not wanted or wanted == "// ...":
            continue
        while at < len(source) and source[at] != wanted:
            at += 1
        if at == len(source):
            return wanted
        at += 1
    return None


def path_tokens(span):
    for token in PATH_TOKEN.findall(span):
        token = token.rstrip(".,;:)")
        if "<" in token or ">" in token or "*" in token:
            continue
        if token == "setup.sh" or token == "./setup.sh":
            yield "setup.sh"
        elif token.startswith(PATH_PREFIXES) and "/" in token:
            yield token


def help_text(command):
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        sys.exit("docs_check: cannot run %s: %s" % (" ".join(command), error))
    text = done.stdout.decode("utf-8", "replace")
    if "--" not in text:
        sys.exit("docs_check: %s printed no options (exit %d)" % (" ".join(command), done.returncode))
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", required=True, help="the source tree (README.md, docs/, setup.sh)")
    parser.add_argument("--program", action="append", default=[],
                        help="a program whose --help lists options the docs may name (repeatable)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)

    documents = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    documents = [d for d in documents if os.path.isfile(d)]
    if not documents:
        sys.exit("docs_check: no README.md or docs/*.md under %s" % root)

    helps = [help_text(["bash", os.path.join(root, "setup.sh"), "--help"])]
    helps += [help_text([program, "--help"]) for program in args.program]
    known = set()
    families = set()
    for text in helps:
        known.update(option for option, _ in OPTION.findall(text))
        families.update(PREFIX_FAMILY.findall(text))

    failures = []
    checked_paths = checked_options = checked_excerpts = 0
    for document in documents:
        name = os.path.relpath(document, root)
        with open(document, encoding="utf-8") as f:
            text = f.read()
        for number, path, lines in excerpts(text):
            checked_excerpts += 1
            missing = excerpt_missing(root, path, lines)
            if missing is not None:
                failures.append("%s:%d: excerpt of %s: `%s` is not in it (in this order)"
                                % (name, number, path, missing))
        for number, span in backtick_spans(text):
            for token in path_tokens(span):
                checked_paths += 1
                if not os.path.exists(os.path.join(root, token.rstrip("/"))):
                    failures.append("%s:%d: path `%s` does not exist" % (name, number, token))
            for option, star in OPTION.findall(span):
                checked_options += 1
                if option in known or any(option.startswith(f) for f in families):
                    continue
                if star and any(k.startswith(option) for k in known):
                    continue  # a family such as --expect-*: some listed option starts with it
                failures.append("%s:%d: option `%s` is in no program's --help nor setup.sh --help"
                                % (name, number, option))

    for failure in failures:
        print(failure)
    print("docs_check: %d documents, %d path references, %d option references, %d excerpts, "
          "%d programs' --help: %s"
          % (len(documents), checked_paths, checked_options, checked_excerpts, len(args.program),
             "%d failures" % len(failures) if failures else "all found"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
