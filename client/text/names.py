"""A player's name as a person types it (``--name``, the name prompts): why it is not
one, in the person's language, and the forms of it that are, as the browser offers them."""

from __future__ import annotations

import re

from scopa.protocol.parties import NAME_CHARS, NAME_PATTERN, normal_name

from .i18n import tr


def name_forms(typed: str) -> list[str]:
    """The names a server takes that are made of ``typed``'s words: joined by ``_``, and
    run together ("Nonna Pina": ``Nonna_Pina``, ``NonnaPina``), as the browser offers them."""
    words = re.sub(rf"[^{NAME_CHARS}\s]", "", normal_name(typed)).split()
    forms = ("_".join(words)[:24], "".join(words)[:24])
    return [form for form in dict.fromkeys(forms) if re.fullmatch(NAME_PATTERN, form)]


def name_problem(typed: str, option: str = "--name ") -> str | None:
    """Why ``typed`` is not a name, in the person's language, with the forms of it that are
    (each after ``option``: ``--name`` on the command line, nothing at a prompt); None: it is one."""
    if re.fullmatch(NAME_PATTERN, normal_name(typed)) is not None:
        return None
    if re.search(r"\s", typed.strip()):
        problem = tr("{typed} is not a name (no spaces)", typed=repr(typed.strip()))
    else:
        problem = tr("{typed} is not a name: use 1 to 24 letters (accented ones too), digits, '.', '_' or '-'",
                     typed=repr(typed.strip()))
    forms = [option + form for form in name_forms(typed)]
    if not forms:
        return problem
    offer = forms[0] if len(forms) == 1 else tr("{first} or {second}", first=forms[0], second=forms[1])
    return tr("{problem}: try {offer}", problem=problem, offer=offer)
