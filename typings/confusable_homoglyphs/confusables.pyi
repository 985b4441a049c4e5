# The part of confusable_homoglyphs that scopa.server.core.text reads: each character ->
# its groups of look-alikes, each {"c": a look-alike (one or more characters), "n": its name}.
confusables_data: dict[str, list[dict[str, str]]]
