"""Every file a document cites exists (#38, 5): paths in backticks and link targets in docs/,
the README and each folder's README. A public header may be cited by its short form,
`analysis/fusion.hpp` for analysis/include/ridgeline/analysis/fusion.hpp.

SOURCE_DIR names the tree (CTest sets it)."""
import glob
import os
import re
import unittest

ROOT = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CITED = re.compile(r"`([A-Za-z_][\w.-]*/[\w./-]*\.(?:cpp|hpp|md|py|txt|sh|cu|json|cmake|c))`")
LINK = re.compile(r"\]\(([^)#\s]+)\)")


def documents():
    return (sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + [os.path.join(ROOT, "README.md")]
            + sorted(glob.glob(os.path.join(ROOT, "*", "README.md"))))


def exists(path, doc):
    module, _, rest = path.partition("/")
    return any(os.path.exists(os.path.join(ROOT, c)) for c in (
        path, os.path.join(os.path.relpath(os.path.dirname(doc), ROOT), path),
        os.path.join(module, "include", "ridgeline", path),
        os.path.join(module, "include", "ridgeline", module, rest)))


class DocumentedPaths(unittest.TestCase):
    def test_every_cited_file_exists(self):
        missing = []
        for doc in documents():
            with open(doc) as f:
                text = f.read()
            for path in sorted(set(CITED.findall(text))):
                if not exists(path, doc):
                    missing.append(f"{os.path.relpath(doc, ROOT)}: {path}")
            for target in LINK.findall(text):
                if target.startswith(("http://", "https://", "mailto:")):
                    continue
                if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(doc), target))):
                    missing.append(f"{os.path.relpath(doc, ROOT)}: link {target}")
        self.assertGreater(len(documents()), 10)
        self.assertEqual(missing, [])

    def test_a_missing_file_is_found(self):
        # The check itself: a made-up path is not taken for one that exists.
        self.assertFalse(exists("analysis/src/no_such_file.cpp", os.path.join(ROOT, "README.md")))
        self.assertTrue(exists("analysis/fusion.hpp", os.path.join(ROOT, "README.md")))


if __name__ == "__main__":
    unittest.main()
