"""Marked blocks of a document, rewritten in place: the lines between a
start line and the next end line. Shared by bench-docs.py (bench tables)
and docs-generate.py (behaviour table, runs, patch list)."""


def rewrite_blocks(text, start, end, render):
    """text with the lines between each line that matches the regex start
    and the next line equal to end replaced by render(match.group(1)).
    Raises ValueError naming a start line that has no end line after it."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        out.append(lines[i])
        m = start.match(lines[i])
        i += 1
        if not m:
            continue
        stop = next((j for j in range(i, len(lines)) if lines[j] == end), None)
        if stop is None:
            raise ValueError(f"'{lines[i - 1]}' has no '{end}' after it")
        out += render(m.group(1))
        i = stop
    return "\n".join(out)
