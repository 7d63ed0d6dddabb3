"""English singular and plural forms of the counted strings (`trn("%n …", n)`).

The source text is the plural; Qt picks the form for the count. `update_ts.py` compiles
this table into taskpack_en.qm, which the window loads for English.
"""

PLURALS: dict[str, tuple[str, str]] = {
    "%n answers you typed wait here, not saved yet": (
        "%n answer you typed waits here, not saved yet",
        "%n answers you typed wait here, not saved yet",
    ),
    "%n answers": ("%n answer", "%n answers"),
    "%n new questions, kept as open asks": (
        "%n new question, kept as an open ask",
        "%n new questions, kept as open asks",
    ),
    "%n attached files": ("%n attached file", "%n attached files"),
    "%n questions are still unanswered. The receipt will say so, and they stay open here: answer them later and send another receipt.": (
        "%n question is still unanswered. The receipt will say so, and it stays open here: answer it later and send another receipt.",
        "%n questions are still unanswered. The receipt will say so, and they stay open here: answer them later and send another receipt.",
    ),
    "Your receipt went home with %n questions still unanswered: answer them in the Asks tab, then send another receipt.": (
        "Your receipt went home with %n question still unanswered: answer it in the Asks tab, then send another receipt.",
        "Your receipt went home with %n questions still unanswered: answer them in the Asks tab, then send another receipt.",
    ),
    "%n answer comes home": ("%n answer comes home", "%n answers come home"),
    "%n answer is not saved yet.": ("%n answer is not saved yet.", "%n answers are not saved yet."),
    "%n ask stays open": ("%n ask stays open", "%n asks stay open"),
    "%n characters": ("%n character", "%n characters"),
    "%n more desks": ("%n more desk", "%n more desks"),
    "%n incoming": ("%n incoming", "%n incoming"),
    "%n of {total} facts is not proven here: a ✓ does not survive a machine boundary.": (
        "%n of {total} facts is not proven here: a ✓ does not survive a machine boundary.",
        "%n of {total} facts are not proven here: a ✓ does not survive a machine boundary.",
    ),
    "%n passports": ("%n passport", "%n passports"),
    "%n required checks are first in its Overview.": (
        "%n required check is first in its Overview.",
        "%n required checks are first in its Overview.",
    ),
    "(and %n more)": ("(and %n more)", "(and %n more)"),
    "Asks (%n open)": ("Asks (%n open)", "Asks (%n open)"),
    "Attached files (%n, {size})": ("Attached file (%n, {size})", "Attached files (%n, {size})"),
    "It waits for you: take it on (approve, accept and start in one go), then answer its %n open questions.": (
        "It waits for you: take it on (approve, accept and start in one go), then answer its open question.",
        "It waits for you: take it on (approve, accept and start in one go), then answer its %n open questions.",
    ),
    "Next: answer the %n open questions in the Asks tab, then send the answers home as a receipt.": (
        "Next: answer the open question in the Asks tab, then send the answer home as a receipt.",
        "Next: answer the %n open questions in the Asks tab, then send the answers home as a receipt.",
    ),
    "Save all answers (%n)": ("Save all answers (%n)", "Save all answers (%n)"),
    "Saved %n answers. Export a receipt to send the answers home.": (
        "Saved %n answer. Export a receipt to send it home.",
        "Saved %n answers. Export a receipt to send the answers home.",
    ),
    "watching %n folders": ("watching %n folder", "watching %n folders"),
    "%n folders checked every {seconds} s (no change events)": (
        "%n folder checked every {seconds} s (no change events)",
        "%n folders checked every {seconds} s (no change events)",
    ),
}
