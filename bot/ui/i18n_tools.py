"""Maintainer CLI for the gettext catalogues (Babel's library API, no subprocess).

``python -m bot.ui.i18n_tools update``
    Extract every message marked with ``_()``, ``N_()`` or ``ngettext(singular, plural, n)`` in
    ``bot/`` (methods from ``babel.cfg``), write ``locales/messages.pot`` and merge it into
    ``locales/<lang>/LC_MESSAGES/messages.po`` for each supported language (created if missing).
    Existing translations are kept; new entries are left empty (no fuzzy guessing); entries whose
    msgid disappeared are kept as obsolete (``#~``) unless ``--no-obsolete``. A file is rewritten
    only when something other than its timestamps changed.

``python -m bot.ui.i18n_tools check``
    Extract afresh from the source and list, per language, every msgid that is missing from the
    catalogue, untranslated (any plural form empty), fuzzy, or whose translation has other
    ``{placeholders}`` or HTML tags than the msgid. Exit status 1 when anything is listed, else 0.

The ``.mo`` files need no build step: :func:`bot.ui.i18n.compile_catalogues` compiles them on load.
"""

from __future__ import annotations

import argparse
import io
import re
import string
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, LOCALES_DIR, SUPPORTED_LOCALES

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIR = ROOT / "bot"
MAPPING_FILE = ROOT / "babel.cfg"
TEMPLATE_NAME = f"{DOMAIN}.pot"

#: The project's only translation markers; ``ngettext`` takes (singular, plural, n).
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "ngettext": (1, 2)}

_HEADER = ("# {what} for PROJECT.\n"
           "# Maintained with `python -m bot.ui.i18n_tools update` (see bot/ui/i18n_tools.py).\n#")
_AUTHORS = "the mafia-bot developers"  #: the catalogues' copyright holder and last translator
_DATE_HEADER = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"\n', re.MULTILINE)
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?>")


# --- extraction ------------------------------------------------------------------------------
def _project() -> tuple[str, str]:
    try:
        meta = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
        return meta["name"], meta["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "mafia-bot", ""


def extract_template(source_dir: Path = SOURCE_DIR, mapping_file: Path = MAPPING_FILE) -> Catalog:
    """Extract the marked messages under ``source_dir`` into a template :class:`Catalog`.

    Uses the extraction methods of ``mapping_file`` (``babel.cfg``; Python files by default when
    it does not exist) and :data:`KEYWORDS`. Message locations are relative to ``source_dir``.
    """
    if mapping_file.exists():
        with mapping_file.open(encoding="utf-8") as f:
            method_map, options_map = parse_mapping_cfg(f, str(mapping_file))
    else:
        method_map, options_map = [("**.py", "python")], {}
    name, version = _project()
    template = Catalog(project=name, version=version, fuzzy=True,
                       header_comment=_HEADER.format(what="Translations template"),
                       copyright_holder=_AUTHORS, last_translator=_AUTHORS)
    for filename, lineno, message, comments, context in extract_from_dir(
            source_dir, method_map, options_map, keywords=KEYWORDS):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


# --- reading and writing catalogues ----------------------------------------------------------
def po_path(locales_dir: Path, locale: str) -> Path:
    return locales_dir / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(path: Path, locale: str | None = None) -> Catalog:
    """Read a ``.po`` or ``.pot`` file; raises ``OSError`` when it cannot be opened."""
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _serialise(catalog: Catalog, keep_obsolete: bool) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, ignore_obsolete=not keep_obsolete, width=76, no_location=True,
             sort_output=True)
    return buf.getvalue()


def write_catalogue(path: Path, catalog: Catalog, keep_obsolete: bool = True) -> bool:
    """Write ``catalog`` to ``path`` unless only its date headers would change. True if written."""
    data = _serialise(catalog, keep_obsolete)
    if path.exists() and _DATE_HEADER.sub(b"", path.read_bytes()) == _DATE_HEADER.sub(b"", data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _is_plural(message: Message) -> bool:
    return isinstance(message.id, (list, tuple))


def _translated(message: Message) -> bool:
    forms = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
    return bool(forms) and all(forms)


def _new_catalogue(locale: str, template: Catalog) -> Catalog:
    language = Locale.parse(locale).english_name
    return Catalog(locale=locale, project=template.project, version=template.version,
                   header_comment=_HEADER.format(what=f"{language} translations"),
                   language_team=language, copyright_holder=_AUTHORS, last_translator=_AUTHORS)


# --- update ----------------------------------------------------------------------------------
def update_catalogues(locales_dir: Path = LOCALES_DIR, source_dir: Path = SOURCE_DIR,
                      mapping_file: Path = MAPPING_FILE, locales: Iterable[str] = SUPPORTED_LOCALES,
                      keep_obsolete: bool = True) -> dict[str, list[str]]:
    """Re-extract the template and merge it into each locale's catalogue.

    Returns ``{locale: [msgid, ...]}`` of the entries that are untranslated after the merge (new
    ones included); a plural entry is named by its singular. Raises ``OSError`` on I/O failure.
    """
    template = extract_template(source_dir, mapping_file)
    write_catalogue(locales_dir / TEMPLATE_NAME, template, keep_obsolete=False)
    untranslated: dict[str, list[str]] = {}
    for locale in locales:
        path = po_path(locales_dir, locale)
        catalog = read_catalogue(path, locale) if path.exists() else _new_catalogue(locale, template)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.fuzzy = False  # a fuzzy header would make msgfmt drop Plural-Forms
        write_catalogue(path, catalog, keep_obsolete=keep_obsolete)
        untranslated[locale] = [_key(m) for m in catalog if m.id and not _translated(m)]
    return untranslated


# --- check -----------------------------------------------------------------------------------
def placeholders(text: str) -> set[str]:
    """The ``str.format`` field names in ``text`` (``{{`` escapes ignored); ValueError if malformed."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def tag_problem(text: str) -> str | None:
    """Describe the first unbalanced HTML tag in ``text``, or None when all tags pair up."""
    stack: list[str] = []
    for m in _TAG.finditer(text):
        closing, name = m.group(1) == "/", m.group(2).lower()
        if not closing:
            stack.append(name)
        elif not stack or stack.pop() != name:
            return f"unexpected </{name}>"
    return f"unclosed <{stack[-1]}>" if stack else None


def tags(text: str) -> Counter[str]:
    """How many times each HTML tag (opening and closing separately) occurs in ``text``."""
    return Counter(f"<{m.group(1)}{m.group(2).lower()}>" for m in _TAG.finditer(text))


def _key(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def _ids(message: Message) -> list[str]:
    """The msgid, or the singular and plural msgids."""
    return [message.id] if isinstance(message.id, str) else list(message.id)


def _forms(message: Message) -> list[str]:
    """The translation, or its plural forms ("" for a missing one)."""
    string = message.string
    if isinstance(string, (list, tuple)):
        return [form or "" for form in string]
    return [string or ""]


def message_problems(message: Message, num_plurals: int) -> list[str]:
    """Everything wrong with one catalogue entry's translation (empty list when it is fine)."""
    ids, forms = _ids(message), _forms(message)
    if not _translated(message):
        return ["untranslated"]
    problems = []
    if message.fuzzy:
        problems.append("fuzzy")
    if _is_plural(message) and len(forms) != num_plurals:
        problems.append(f"{len(forms)} plural forms, {num_plurals} expected")
    try:
        wanted = set().union(*(placeholders(i) for i in ids))
    except ValueError as exc:
        return problems + [f"msgid is not a valid format string: {exc}"]
    for i, form in enumerate(forms):
        where = f"form {i}: " if len(forms) > 1 else ""
        try:
            got = placeholders(form)
        except ValueError as exc:
            problems.append(f"{where}not a valid format string: {exc}")
            continue
        if got != wanted:
            problems.append(f"{where}placeholders {sorted(got)} != {sorted(wanted)}")
        bad = tag_problem(form)
        if bad:
            problems.append(f"{where}HTML: {bad}")
        elif tags(form) != tags(ids[0]):
            problems.append(f"{where}HTML tags {sorted(tags(form).elements())} != "
                            f"{sorted(tags(ids[0]).elements())}")
    return problems


def check_catalogues(locales_dir: Path = LOCALES_DIR, source_dir: Path = SOURCE_DIR,
                     mapping_file: Path = MAPPING_FILE,
                     locales: Iterable[str] = SUPPORTED_LOCALES) -> dict[str, list[str]]:
    """``{locale: [problem, ...]}`` for every message extracted from ``source_dir`` afresh.

    A missing catalogue file is reported as one problem; so is each missing, untranslated,
    fuzzy or inconsistent (placeholders, HTML tags, plural count) entry.
    """
    template = extract_template(source_dir, mapping_file)
    report: dict[str, list[str]] = {}
    for locale in locales:
        path = po_path(locales_dir, locale)
        try:
            catalog = read_catalogue(path, locale)
        except OSError as exc:
            report[locale] = [f"cannot read {path}: {exc.strerror or exc}"]
            continue
        problems = []
        for tmsg in template:
            if not tmsg.id:
                continue
            msg = catalog.get(tmsg.id, tmsg.context)
            if msg is None:
                problems.append(f"missing: {_key(tmsg)!r}")
                continue
            problems.extend(f"{p}: {_key(tmsg)!r}" for p in message_problems(msg, catalog.num_plurals))
        report[locale] = problems
    return report


# --- CLI -------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ui.i18n_tools", description=__doc__.split("\n")[0])
    parser.add_argument("--locales-dir", type=Path, default=LOCALES_DIR)
    parser.add_argument("--source-dir", type=Path, default=SOURCE_DIR)
    parser.add_argument("--mapping", type=Path, default=MAPPING_FILE, help="Babel mapping (babel.cfg)")
    parser.add_argument("--locale", action="append", dest="locales",
                        help=f"limit to this language (repeatable; default: {', '.join(SUPPORTED_LOCALES)})")
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("update", help="re-extract the template and merge it into the catalogues")
    up.add_argument("--no-obsolete", action="store_true", help="drop entries no longer in the source")
    sub.add_parser("check", help="exit 1 listing missing, empty or inconsistent translations")
    args = parser.parse_args(argv)
    locales = args.locales or SUPPORTED_LOCALES

    if args.command == "update":
        pending = update_catalogues(args.locales_dir, args.source_dir, args.mapping, locales,
                                    keep_obsolete=not args.no_obsolete)
        for locale, msgids in pending.items():
            print(f"{locale}: {len(msgids)} untranslated")
            for msgid in msgids:
                print(f"  {msgid!r}")
        return 0

    report = check_catalogues(args.locales_dir, args.source_dir, args.mapping, locales)
    failed = False
    for locale, problems in report.items():
        print(f"{locale}: {'OK' if not problems else f'{len(problems)} problem(s)'}")
        for problem in problems:
            print(f"  {problem}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
