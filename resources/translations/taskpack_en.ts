<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
  <context>
    <name>taskpack</name>
    <message numerus="yes">
      <location filename="../../ui/review_view.py" line="529" />
      <source>%n answer comes home</source>
      <translation>
        <numerusform>%n answer comes home</numerusform>
        <numerusform>%n answers come home</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/asks_form.py" line="433" />
      <source>%n answer is not saved yet.</source>
      <translation>
        <numerusform>%n answer is not saved yet.</numerusform>
        <numerusform>%n answers are not saved yet.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/pack_items.py" line="392" />
      <source>%n answers</source>
      <translation>
        <numerusform>%n answer</numerusform>
        <numerusform>%n answers</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/models.py" line="294" />
      <source>%n answers you typed wait here, not saved yet</source>
      <translation>
        <numerusform>%n answer you typed waits here, not saved yet</numerusform>
        <numerusform>%n answers you typed wait here, not saved yet</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/review_view.py" line="530" />
      <source>%n ask stays open</source>
      <translation>
        <numerusform>%n ask stays open</numerusform>
        <numerusform>%n asks stay open</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/pack_items.py" line="398" />
      <source>%n attached files</source>
      <translation>
        <numerusform>%n attached file</numerusform>
        <numerusform>%n attached files</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/words.py" line="46" />
      <source>%n characters</source>
      <translation>
        <numerusform>%n character</numerusform>
        <numerusform>%n characters</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/window/watching.py" line="120" />
      <source>%n folders checked every {seconds} s (no change events)</source>
      <translation>
        <numerusform>%n folder checked every {seconds} s (no change events)</numerusform>
        <numerusform>%n folders checked every {seconds} s (no change events)</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/main_window.py" line="390" />
      <source>%n incoming</source>
      <translation>
        <numerusform>%n incoming</numerusform>
        <numerusform>%n incoming</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/journey.py" line="106" />
      <source>%n more desks</source>
      <translation>
        <numerusform>%n more desk</numerusform>
        <numerusform>%n more desks</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/pack_items.py" line="394" />
      <source>%n new questions, kept as open asks</source>
      <translation>
        <numerusform>%n new question, kept as an open ask</numerusform>
        <numerusform>%n new questions, kept as open asks</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/review_view.py" line="398" />
      <source>%n of {total} facts is not proven here: a ✓ does not survive a machine boundary.</source>
      <translation>
        <numerusform>%n of {total} facts is not proven here: a ✓ does not survive a machine boundary.</numerusform>
        <numerusform>%n of {total} facts are not proven here: a ✓ does not survive a machine boundary.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/main_window.py" line="390" />
      <source>%n passports</source>
      <translation>
        <numerusform>%n passport</numerusform>
        <numerusform>%n passports</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/export.py" line="91" />
      <source>%n questions are still unanswered. The receipt will say so, and they stay open here: answer them later and send another receipt.</source>
      <translation>
        <numerusform>%n question is still unanswered. The receipt will say so, and it stays open here: answer it later and send another receipt.</numerusform>
        <numerusform>%n questions are still unanswered. The receipt will say so, and they stay open here: answer them later and send another receipt.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/window/incoming.py" line="311" />
      <source>%n required checks are first in its Overview.</source>
      <translation>
        <numerusform>%n required check is first in its Overview.</numerusform>
        <numerusform>%n required checks are first in its Overview.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/error_text.py" line="73" />
      <source>(and %n more)</source>
      <translation>
        <numerusform>(and %n more)</numerusform>
        <numerusform>(and %n more)</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/passport_view.py" line="181" />
      <source>Asks (%n open)</source>
      <translation>
        <numerusform>Asks (%n open)</numerusform>
        <numerusform>Asks (%n open)</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/review_view.py" line="492" />
      <source>Attached files (%n, {size})</source>
      <translation>
        <numerusform>Attached file (%n, {size})</numerusform>
        <numerusform>Attached files (%n, {size})</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/next_step.py" line="77" />
      <source>It waits for you: take it on (approve, accept and start in one go), then answer its %n open questions.</source>
      <translation>
        <numerusform>It waits for you: take it on (approve, accept and start in one go), then answer its open question.</numerusform>
        <numerusform>It waits for you: take it on (approve, accept and start in one go), then answer its %n open questions.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/next_step.py" line="97" />
      <source>Next: answer the %n open questions in the Asks tab, then send the answers home as a receipt.</source>
      <translation>
        <numerusform>Next: answer the open question in the Asks tab, then send the answer home as a receipt.</numerusform>
        <numerusform>Next: answer the %n open questions in the Asks tab, then send the answers home as a receipt.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/asks_form.py" line="439" />
      <source>Save all answers (%n)</source>
      <translation>
        <numerusform>Save all answers (%n)</numerusform>
        <numerusform>Save all answers (%n)</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/window/passport_actions.py" line="317" />
      <source>Saved %n answers. Export a receipt to send the answers home.</source>
      <translation>
        <numerusform>Saved %n answer. Export a receipt to send it home.</numerusform>
        <numerusform>Saved %n answers. Export a receipt to send the answers home.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/next_step.py" line="61" />
      <source>Your receipt went home with %n questions still unanswered: answer them in the Asks tab, then send another receipt.</source>
      <translation>
        <numerusform>Your receipt went home with %n question still unanswered: answer it in the Asks tab, then send another receipt.</numerusform>
        <numerusform>Your receipt went home with %n questions still unanswered: answer them in the Asks tab, then send another receipt.</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/window/watching.py" line="118" />
      <source>watching %n folders</source>
      <translation>
        <numerusform>watching %n folder</numerusform>
        <numerusform>watching %n folders</numerusform>
      </translation>
    </message>
  </context>
</TS>
