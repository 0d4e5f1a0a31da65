"""The checksum of the code a series changes, shared by record-run.py and
docs-generate.py: a run recorded against one version of the series stays
a run of "this series" when only documents change (commit messages, the
cover letter, Documentation/ files), and stops being one when any other
hunk does."""

import hashlib
import re

# Each base's series file and patch directory, relative to the repository.
SERIES = {"6.1": ("series", "patches"), "6.12": ("patches/6.12/series", "patches/6.12")}

# A patch's per-file sections: "diff --git a/<path> b/<path>" up to the next.
SECTION = re.compile(r"^diff --git a/(\S+) b/\S+\n", re.M)


def series_names(series_text):
    """The patches a `series` file lists, in order (comments and blank
    lines dropped, as scripts/series-patches.sh reads it)."""
    names = [x.split("#")[0].strip() for x in series_text.split("\n")]
    return [n for n in names if n]


def code_checksum(series_text, read_patch):
    """12 hex digits over the non-Documentation/ file sections of the
    patches series_text lists, in order; read_patch(name) gives a patch's
    text. Returns (checksum, number of patches)."""
    names = series_names(series_text)
    h = hashlib.sha256()
    for name in names:
        text = read_patch(name)
        # The signature "-- " line ends the diff; format-patch --no-signature omits it.
        text = re.split(r"^-- $", text, maxsplit=1, flags=re.M)[0]
        starts = [(m.start(), m.group(1)) for m in SECTION.finditer(text)]
        for i, (pos, path) in enumerate(starts):
            end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
            if not path.startswith("Documentation/"):
                h.update(text[pos:end].encode())
    return h.hexdigest()[:12], len(names)
