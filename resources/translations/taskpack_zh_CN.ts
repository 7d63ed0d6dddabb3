<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
  <context>
    <name>taskpack</name>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="76" />
      <source> — how: {how}</source>
      <translation> — 做法：{how}</translation>
    </message>
    <message>
      <location filename="../../ui/step_text.py" line="24" />
      <source> — sender's suggestion, not run: «{how}»</source>
      <translation> — 发送方的建议，未运行：«{how}»</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="73" />
      <location filename="../../ui/composer/send.py" line="124" />
      <source> — to {who}</source>
      <translation> — 给 {who}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="105" />
      <source> — your suggestion: {how}</source>
      <translation> — 发送方建议的做法：{how}</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="251" />
      <source>&amp;About TaskPack Desk</source>
      <translation>关于 TaskPack Desk(&amp;A)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="242" />
      <source>&amp;All passports</source>
      <translation>全部护照(&amp;A)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="214" />
      <source>&amp;Compose this passport…</source>
      <translation>在编写器中编辑这本护照(&amp;C)…</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="230" />
      <location filename="../../ui/opening.py" line="83" />
      <source>&amp;Edit</source>
      <translation>编辑(&amp;E)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="205" />
      <location filename="../../ui/opening.py" line="83" />
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="244" />
      <location filename="../../ui/opening.py" line="83" />
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="247" />
      <source>&amp;How TaskPack Desk works</source>
      <translation>TaskPack Desk 怎么用(&amp;H)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="241" />
      <source>&amp;Incoming packs</source>
      <translation>新到的包(&amp;I)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="211" />
      <source>&amp;New passport…</source>
      <translation>新建护照(&amp;N)…</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="207" />
      <source>&amp;Open packs…</source>
      <translation>打开包(&amp;O)…</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="232" />
      <source>&amp;Paste a pack</source>
      <translation>粘贴任务包(&amp;P)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="226" />
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="243" />
      <source>&amp;Refresh</source>
      <translation>刷新(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="221" />
      <source>&amp;Settings…</source>
      <translation>设置(&amp;S)…</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="240" />
      <location filename="../../ui/opening.py" line="83" />
      <source>&amp;View</source>
      <translation>查看(&amp;V)</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="146" />
      <source>(no accept given: this ask cannot be judged)</source>
      <translation>（没有给出验收标准：这个提问无法判定）</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="165" />
      <source>(no accept: this ask cannot be judged)</source>
      <translation>（没有验收标准：这个提问无法判定）</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="133" />
      <location filename="../../ui/step_text.py" line="21" />
      <source>(no check text)</source>
      <translation>（没有检查内容）</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="100" />
      <source>(no claim)</source>
      <translation>（没有陈述）</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="132" />
      <location filename="../../ui/pack_items.py" line="219" />
      <source>(no question)</source>
      <translation>（没有问题）</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="230" />
      <source>(not answered)</source>
      <translation>（未回答）</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="84" />
      <source>(sender withheld: it contains a credential — {kind})</source>
      <translation>（发送方已隐去：其中含有凭据——{kind}）</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="85" />
      <source>(title withheld: it contains a credential — {kind})</source>
      <translation>（标题已隐去：其中含有凭据——{kind}）</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="147" />
      <source>(untitled)</source>
      <translation>（无标题）</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="214" />
      <location filename="../../ui/pack_items.py" line="402" />
      <source>; </source>
      <translation>；</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="119" />
      <source>A fact checked on one machine (“the export runs in 40 s on this laptop”) is not checked on yours. When it travels it arrives “⚠ unproven here”: check it yourself, then press “I checked this here”.</source>
      <translation>在一台机器上检查过的事实（“导出在这台笔记本上要 40 秒”）在你的机器上并没有检查过。它随包到达时标为“⚠ 此处未证实”：自己检查一遍，然后按“我在这里检查过了”。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="169" />
      <source>A few words for the receiver</source>
      <translation>给接收方的几句话</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="64" />
      <source>A handoff hands the work on. A receipt brings the answers back to the desk that asked. Nothing in a pack is ever run.</source>
      <translation>交接包把工作交出去；回执把回答带回提问的工作台。任务包里的任何内容都不会被执行。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="48" />
      <source>A handoff is never merged into a passport: it lands as a new one. Nothing was changed.</source>
      <translation>交接包从不合并到已有护照：它会作为一本新护照落地。什么都没有改变。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="52" />
      <location filename="../../ui/window/passport_actions.py" line="372" />
      <source>A machine fact is sealed unproven when it leaves this machine.</source>
      <translation>机器范围的事实离开本机时会被封存为“未证实”。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="166" />
      <source>A name; kept in your outbox with the pack</source>
      <translation>一个名字；和包一起记在你的发件箱里</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="237" />
      <source>A new email is open. Attach {name}: it is shown in your file manager.</source>
      <translation>已新建一封邮件。请附上 {name}：文件管理器里已经显示了它。</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="137" />
      <source>A new email was opened; {file} was shown to attach by hand.</source>
      <translation>已新建一封邮件；已显示 {file}，请手动添加为附件。</translation>
    </message>
    <message>
      <location filename="../../ui/window/watching.py" line="141" />
      <source>A pack arrived</source>
      <translation>收到一个包</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="59" />
      <source>A pack is a file that carries unfinished work from one person (or machine, or AI agent) to the next: the goal, where it stands, what is proven, the checks to do first and the questions the sender needs answered.</source>
      <translation>任务包是一个文件，把没做完的工作从一个人（或一台机器、一个 AI 助手）交给下一个：目标、当前进展、已经证实的事、要先做的检查，以及发送方需要回答的问题。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="439" />
      <source>A passport needs a title and a goal.</source>
      <translation>护照需要标题和目标。</translation>
    </message>
    <message>
      <location filename="../../ui/window/watching.py" line="141" />
      <source>A receipt arrived</source>
      <translation>收到一份回执</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="104" />
      <source>A receipt merged from {file} (the answerer's passport {sender}).</source>
      <translation>从 {file} 合并了一份回执（回答方的护照 {sender}）。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="50" />
      <source>A result came back: check its evidence in the Overview, then say it holds.</source>
      <translation>结果已交回：请在“概览”中核对证据，然后确认它成立。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="195" />
      <source>A result needs evidence; the task moves to verifying.</source>
      <translation>结果需要证据；任务将进入“核验中”。</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="81" />
      <source>A team desk is a PostgreSQL address: postgresql://USER@HOST:PORT/DB.</source>
      <translation>团队工作台是一个 PostgreSQL 地址：postgresql://用户@主机:端口/数据库。</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="133" />
      <source>A2A: not serving. {why}</source>
      <translation>A2A：未在服务。{why}</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="135" />
      <source>A2A: off</source>
      <translation>A2A：已关闭</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="127" />
      <source>A2A: serving {url}</source>
      <translation>A2A：正在 {url} 上服务</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="129" />
      <source>A2A: starting…</source>
      <translation>A2A：正在启动…</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="131" />
      <source>A2A: stopping…</source>
      <translation>A2A：正在停止…</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="507" />
      <source>About TaskPack Desk</source>
      <translation>关于 TaskPack Desk</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="30" />
      <source>Accept</source>
      <translation>接受</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="129" />
      <source>Add</source>
      <translation>添加</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="56" />
      <source>Add a decision</source>
      <translation>添加决定</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="52" />
      <location filename="../../ui/window/passport_actions.py" line="366" />
      <source>Add a fact</source>
      <translation>添加事实</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="65" />
      <location filename="../../ui/window/passport_actions.py" line="355" />
      <source>Add a landing check</source>
      <translation>添加落地检查</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="60" />
      <location filename="../../ui/window/passport_actions.py" line="374" />
      <source>Add a next step</source>
      <translation>添加下一步</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="62" />
      <location filename="../../ui/window/passport_actions.py" line="346" />
      <source>Add an ask</source>
      <translation>添加提问</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="29" />
      <location filename="../../ui/passport_view.py" line="431" />
      <source>Add ask…</source>
      <translation>添加提问…</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="96" />
      <source>Add ask…: the line under “What counts as an answer” says, as you type, whether an answer could be judged against it.</source>
      <translation>添加提问…：“什么算作回答”下面的那一行会在你输入时说明，能否据此判断一个回答。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="29" />
      <source>Add decision…</source>
      <translation>添加决定…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="29" />
      <location filename="../../ui/passport_view.py" line="433" />
      <source>Add fact…</source>
      <translation>添加事实…</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="85" />
      <source>Add fact… for what is true, and say where: this machine (it arrives “unproven there” and the receiver checks it), your organisation, or anywhere. Add ask… for each question, with what counts as an answer: the line under it says at once whether an answer could be judged against it. Add landing check… for what the receiver confirms first; Add next step… for what follows. Attach files… (or drop files on the composer) for the files. Every item has Edit… and Remove.</source>
      <translation>用“添加事实…”记下什么是真的，并说明在哪里成立：本机（到达时是“在那里未证实”，由接收方核实）、你的组织内，或在哪里都成立。用“添加提问…”写下每个问题和什么算作回答：下面那一行会马上告诉你能否据此判断回答。用“添加落地检查…”写接收方先确认的事，用“添加下一步…”写之后要做的事。用“附加文件…”（或把文件拖到编写器上）附上文件。每一项都可以“编辑…”和“移除”。</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="148" />
      <source>Add folder…</source>
      <translation>添加文件夹…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="30" />
      <location filename="../../ui/passport_view.py" line="432" />
      <source>Add landing check…</source>
      <translation>添加落地检查…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="29" />
      <location filename="../../ui/passport_view.py" line="434" />
      <source>Add next step…</source>
      <translation>添加下一步…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="396" />
      <source>Added. It travels with the next handoff.</source>
      <translation>已添加。它随下一次交接一起发出。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="423" />
      <source>After landing, answer them in the Asks tab and send a receipt back.</source>
      <translation>落地后，在“提问”页回答它们，再把回执发回去。</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="171" />
      <source>Agent endpoint (A2A)</source>
      <translation>智能体端点（A2A）</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="177" />
      <source>Agents and other desks can then hand packs to this desk while it runs. Each needs a token: run “taskpack token add NAME” and give it to them.</source>
      <translation>这样，本工作台运行时，智能体和其他工作台就能把包交给它。每一方都需要一个令牌：运行“taskpack token add NAME”，再把令牌交给对方。</translation>
    </message>
    <message>
      <location filename="../../ui/dialogs.py" line="30" />
      <location filename="../../ui/window/incoming.py" line="109" />
      <source>All files</source>
      <translation>所有文件</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="162" />
      <source>All states</source>
      <translation>全部状态</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="73" />
      <source>An ask cannot go without what counts as an answer.</source>
      <translation>没有“什么算作回答”，提问不能发出。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="62" />
      <location filename="../../ui/window/passport_actions.py" line="352" />
      <source>An ask needs “what counts as an answer”: the reply is judged against it.</source>
      <translation>提问必须写明“什么算作回答”：回复将据此判定。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="66" />
      <source>An ask without what counts as an answer cannot go ({place}).</source>
      <translation>没有“什么算作回答”的提问不能发出（{place}）。</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="164" />
      <location filename="../../ui/pack_items.py" line="226" />
      <location filename="../../ui/pack_items.py" line="228" />
      <source>Answer</source>
      <translation>回答</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="103" />
      <location filename="../../ui/next_step.py" line="67" />
      <source>Answer the questions</source>
      <translation>回答问题</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="210" />
      <location filename="../../ui/pack_items.py" line="189" />
      <source>Answered by {who}</source>
      <translation>回答者：{who}</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="206" />
      <location filename="../../ui/pack_items.py" line="187" />
      <source>Answered by {who} on {when}</source>
      <translation>{who} 于 {when} 回答</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="197" />
      <source>Answered by {who}, in a receipt</source>
      <translation>{who} 回答，来自一份回执</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="199" />
      <source>Answered by {who}, in the handoff</source>
      <translation>{who} 回答，来自交接包</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="212" />
      <location filename="../../ui/pack_items.py" line="191" />
      <source>Answered on {when}</source>
      <translation>回答于 {when}</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="110" />
      <source>Answered: {asks}.</source>
      <translation>已回答：{asks}。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="300" />
      <source>Answers coming home</source>
      <translation>回来的答案</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="323" />
      <source>Answers: {asks}</source>
      <translation>回答了：{asks}</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="191" />
      <source>Any free port</source>
      <translation>任意空闲端口</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="171" />
      <location filename="../../ui/window/inbox.py" line="361" />
      <source>Anyone</source>
      <translation>任何人</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="19" />
      <source>Approve</source>
      <translation>批准</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="274" />
      <source>Approve it, accept it and start work in one go. Each step is checked and recorded in the history.</source>
      <translation>一次完成批准、接受和开始工作。每一步都会检查并记入历史。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="380" />
      <location filename="../../ui/review_view.py" line="454" />
      <source>Artifacts</source>
      <translation>产出物</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="493" />
      <source>As your passport {id} has it (this file carries it sealed).</source>
      <translation>这是你的护照 {id} 里的样子（这个文件里它是封存的）。</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="39" />
      <source>Ask for changes</source>
      <translation>要求修改</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="286" />
      <location filename="../../ui/composer/composer.py" line="149" />
      <location filename="../../ui/composer/send.py" line="128" />
      <source>Asks</source>
      <translation>提问</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="267" />
      <source>Asks answered or dropped; the others are still open.</source>
      <translation>已回答或已放弃的提问；其余仍未解决。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="347" />
      <source>Asks of {id} that this receipt does not answer.</source>
      <translation>{id} 中这份回执没有回答的提问。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="65" />
      <location filename="../../ui/composer/composer.py" line="68" />
      <source>Attach files</source>
      <translation>附加文件</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="173" />
      <location filename="../../ui/composer/composer.py" line="174" />
      <source>Attach files…</source>
      <translation>附加文件…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="168" />
      <location filename="../../ui/composer/send.py" line="141" />
      <location filename="../../ui/passport_view.py" line="127" />
      <source>Attached files</source>
      <translation>随附文件</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="492" />
      <source>Attached {name}.</source>
      <translation>已附加 {name}。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="494" />
      <source>Attached {n} files.</source>
      <translation>已附加 {n} 个文件。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="497" />
      <source>Attaching…</source>
      <translation>正在附加…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="130" />
      <location filename="../../ui/composer/send.py" line="213" />
      <location filename="../../ui/composer/send.py" line="214" />
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="17" />
      <source>Cancel task</source>
      <translation>取消任务</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="66" />
      <location filename="../../ui/window/incoming.py" line="263" />
      <source>Cancelled.</source>
      <translation>已取消。</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="325" />
      <source>Cannot reach the team desk {where}; trying again. The list may be out of date.</source>
      <translation>无法连接团队工作台 {where}，正在重试。列表可能不是最新的。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="279" />
      <source>Check the file's format</source>
      <translation>检查文件格式</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="98" />
      <source>Checked by {who}.</source>
      <translation>由 {who} 检查。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="459" />
      <source>Checked here by {who} on {when}.</source>
      <translation>{who} 于 {when} 在本机检查过。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="464" />
      <source>Checked on {machine} by {who} on {when}; not yet on this machine.</source>
      <translation>{who} 于 {when} 在 {machine} 上检查过；本机尚未检查。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="264" />
      <location filename="../../ui/composer/send.py" line="313" />
      <source>Checking the attached files for credentials…</source>
      <translation>正在检查随附文件里有没有凭据…</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="285" />
      <source>Checking the format of {name}…</source>
      <translation>正在检查 {name} 的格式…</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="370" />
      <source>Choose one of your passports first, or start a new one.</source>
      <translation>先选一本你的护照，或新建一本。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="132" />
      <location filename="../../ui/window/passport_actions.py" line="368" />
      <source>Claim</source>
      <translation>陈述</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="87" />
      <source>Clear: an answer can be judged against this.</source>
      <translation>清楚：可以据此判断回答。</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="223" />
      <location filename="../../ui/widgets.py" line="229" />
      <source>Close</source>
      <translation>关闭</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="81" />
      <source>Close this review. The file is left where it is; nothing is stored.</source>
      <translation>关闭这次审阅。文件留在原处，不会存储任何内容。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="334" />
      <source>Commit</source>
      <translation>提交</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="98" />
      <source>Composer</source>
      <translation>编写器</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="264" />
      <source>Composing {id}</source>
      <translation>正在编写 {id}</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="327" />
      <source>Copied</source>
      <translation>已复制</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="176" />
      <source>Copied a message for your chat, with the pack in it. Paste it into the chat; {name} is also on the clipboard as a file.</source>
      <translation>已复制一条可发到聊天中的消息，任务包就在其中。把它粘贴到聊天里；{name} 也作为文件放在剪贴板上。</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="181" />
      <source>Copied a message for your chat. The pack is too large to paste as text: attach {name} (it is on the clipboard as a file).</source>
      <translation>已复制一条聊天消息。任务包太大，无法作为文本粘贴：请附上 {name}（它已作为文件放在剪贴板上）。</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="313" />
      <location filename="../../ui/widgets.py" line="328" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="225" />
      <source>Copy all</source>
      <translation>全部复制</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="204" />
      <source>Copy for chat</source>
      <translation>复制到聊天</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="54" />
      <source>Copy handoff for chat</source>
      <translation>复制交接包用于聊天</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="291" />
      <source>Copy path</source>
      <translation>复制路径</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="54" />
      <source>Copy receipt for chat</source>
      <translation>复制回执用于聊天</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="314" />
      <source>Copy the sender's text to the clipboard. Nothing is run.</source>
      <translation>把发送方的文字复制到剪贴板。不会运行任何东西。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="135" />
      <location filename="../../ui/composer/composer.py" line="136" />
      <location filename="../../ui/composer/composer.py" line="197" />
      <source>Create passport</source>
      <translation>创建护照</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="462" />
      <source>Created {id}. Add facts, asks, checks and files; then send a handoff.</source>
      <translation>已创建 {id}。添加事实、提问、检查和文件，然后发出交接包。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="126" />
      <location filename="../../ui/composer/composer.py" line="133" />
      <source>Current state</source>
      <translation>当前状态</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="373" />
      <location filename="../../ui/review_view.py" line="449" />
      <source>Decision</source>
      <translation>决定</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="145" />
      <location filename="../../ui/composer/send.py" line="134" />
      <location filename="../../ui/passport_view.py" line="366" />
      <source>Decisions</source>
      <translation>决定</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="31" />
      <source>Decline</source>
      <translation>拒收</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="19" />
      <source>Deny</source>
      <translation>拒绝</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="141" />
      <source>Details</source>
      <translation>详情</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="249" />
      <location filename="../../ui/window/passport_actions.py" line="283" />
      <source>Did you check this here?</source>
      <translation>你在这里检查过了吗？</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="79" />
      <source>Discard</source>
      <translation>丢弃</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="363" />
      <source>Discarded. The file was left where it is; nothing was stored.</source>
      <translation>已丢弃。文件留在原处，没有存储任何内容。</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="348" />
      <source>Dismiss</source>
      <translation>关闭</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="107" />
      <location filename="../../ui/passport_view.py" line="448" />
      <location filename="../../ui/review_view.py" line="374" />
      <source>Do these first</source>
      <translation>先做这些</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="37" />
      <source>Drag a .taskpack or .taskpack.json file onto this window, or open one. You will see what is proven and what is not, the checks to do first and the questions to answer — before anything is stored. Nothing in a pack is ever run.</source>
      <translation>把 .taskpack 或 .taskpack.json 文件拖到这个窗口，或者打开一个。在存储任何内容之前，你会看到哪些已证实、哪些没有，需要先做的检查，以及要回答的问题。包里的任何内容都不会被运行。</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="179" />
      <source>Drop</source>
      <translation>放弃</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="133" />
      <source>Drop the file on the window (or open it, or paste the message it came in). Read the review: the checks to do first, what is proven, the questions. Nothing is stored until you press Land.</source>
      <translation>把文件拖到窗口上（或打开它，或粘贴带着它的消息）。看一遍审阅：要先做的检查、已经证实的事、提出的问题。在你按“落地”之前，什么都不会保存。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="329" />
      <source>Dropped {ask}.</source>
      <translation>已放弃 {ask}。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="224" />
      <source>Dropped: it will not be answered.</source>
      <translation>已放弃：不会回答它。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="62" />
      <source>Edit ask</source>
      <translation>编辑提问</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="56" />
      <source>Edit decision</source>
      <translation>编辑决定</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="52" />
      <source>Edit fact</source>
      <translation>编辑事实</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="65" />
      <source>Edit landing check</source>
      <translation>编辑落地检查</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="60" />
      <source>Edit next step</source>
      <translation>编辑下一步</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="301" />
      <source>Edit {kind} {n}</source>
      <translation>编辑{kind} {n}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="298" />
      <source>Edit…</source>
      <translation>编辑…</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="55" />
      <source>Email handoff…</source>
      <translation>用邮件发送交接包…</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="55" />
      <source>Email receipt…</source>
      <translation>用邮件发送回执…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="205" />
      <source>Email…</source>
      <translation>发邮件…</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="152" />
      <source>End the task</source>
      <translation>结束任务</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="148" />
      <source>End this task?</source>
      <translation>结束这个任务？</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="107" />
      <source>Every question is answered: send the answers home to {sender}.</source>
      <translation>所有问题都已回答：把回答送回给 {sender}。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="192" />
      <source>Evidence</source>
      <translation>证据</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="37" />
      <source>Evidence fails: back to work</source>
      <translation>证据不成立：退回工作</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="35" />
      <location filename="../../ui/next_step.py" line="52" />
      <source>Evidence holds: complete</source>
      <translation>证据成立：完成</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="188" />
      <source>Evidence kind</source>
      <translation>证据类型</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="135" />
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="100" />
      <source>Fact</source>
      <translation>事实</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="144" />
      <location filename="../../ui/composer/send.py" line="121" />
      <source>Facts</source>
      <translation>事实</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="115" />
      <source>Facts added: {n}.</source>
      <translation>新增事实：{n} 条。</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="91" />
      <source>Facts sealed as not proven here: {n}.</source>
      <translation>封存为“本机未证实”的事实：{n} 条。</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="124" />
      <source>Facts that hold everywhere (an agreement, a requirement) keep their ✓. On the desk that proved a fact, its own passport keeps “✓ proven here”.</source>
      <translation>在哪里都成立的事实（一项约定、一条要求）保留 ✓。在证实了某条事实的工作台上，它自己的护照一直保留“✓ 已在本机证实”。</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="73" />
      <source>File → New passport… (Ctrl+N), or “New passport…” on the empty desk, opens the composer. Give the work a title, a goal and where it stands; press Create passport.</source>
      <translation>文件 → 新建护照…（Ctrl+N），或空工作台上的“新建护照…”，会打开编写器。给工作一个标题、目标和当前进展，然后按“创建护照”。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="169" />
      <source>Files that travel with the handoff. Drop files here, or attach them.</source>
      <translation>随交接包一起发出的文件。把文件拖到这里，或附加它们。</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="170" />
      <source>Filter by sender</source>
      <translation>按发送者筛选</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="168" />
      <source>Filter by state</source>
      <translation>按状态筛选</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="88" />
      <source>First the required check: “{check}”. Do it on this machine, then say “I checked this here” in the Overview.</source>
      <translation>先做必须的检查：“{check}”。在这台机器上完成后，在“概览”中点“我在这里检查过了”。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="315" />
      <source>Fix what is listed above; the preview follows as you type.</source>
      <translation>修正上面列出的问题；预览随你的输入更新。</translation>
    </message>
    <message>
      <location filename="../../ui/window/watching.py" line="85" />
      <source>Folders are not being watched: {why}</source>
      <translation>没有在监视文件夹：{why}</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="424" />
      <source>For the next person</source>
      <translation>给下一位</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="149" />
      <source>For whom:</source>
      <translation>发给：</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="143" />
      <source>For whom? (optional, kept in your outbox)</source>
      <translation>发给谁？（可选，记在你的发件记录里）</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="234" />
      <source>From</source>
      <translation>来自</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="151" />
      <source>From {sender}, packed {when}</source>
      <translation>来自 {sender}，打包于 {when}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="193" />
      <source>Give the work a title and a goal; then add what the receiver needs.</source>
      <translation>给这项工作一个标题和目标；再添加接收方需要的内容。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_facts.py" line="48" />
      <source>Give this fact its ✓ back: you are on {machine}, where it was verified, and this desk wrote the pack that carried it.</source>
      <translation>恢复这个事实的 ✓：你在 {machine} 上，它正是在这里被验证的，而且携带它的包是本工作台写出的。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="123" />
      <location filename="../../ui/composer/composer.py" line="132" />
      <location filename="../../ui/passport_view.py" line="354" />
      <source>Goal</source>
      <translation>目标</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="90" />
      <location filename="../../ui/review_view.py" line="157" />
      <source>Goal: {goal}</source>
      <translation>目标：{goal}</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="207" />
      <location filename="../../ui/review_view.py" line="171" />
      <source>Handed on: {chain}</source>
      <translation>交接经过：{chain}</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="200" />
      <source>Handed to you by {sender}</source>
      <translation>由 {sender} 交给你</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="105" />
      <location filename="../../ui/review_view.py" line="143" />
      <location filename="../../ui/review_view.py" line="216" />
      <source>Handoff</source>
      <translation>交接包</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="319" />
      <source>Handoff — work goes on</source>
      <translation>交接包 — 工作继续</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="184" />
      <source>Has open asks</source>
      <translation>有未答提问</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="383" />
      <source>Hidden text in {place}: invisible characters, decoded here as data</source>
      <translation>{place}藏有隐藏文字：屏幕上看不见的字符，这里解码出来，仅作数据显示</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="124" />
      <location filename="../../ui/passport_view.py" line="128" />
      <source>History</source>
      <translation>历史</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="26" />
      <source>Hold for approval</source>
      <translation>暂停，等待批准</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="24" />
      <source>Hold: wait for a person</source>
      <translation>暂停：等一个人</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="25" />
      <source>Hold: wait for an agent</source>
      <translation>暂停：等一个智能体</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="195" />
      <source>Hop {n} of {total}: {text}</source>
      <translation>第 {n} 站，共 {total} 站：{text}</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="188" />
      <source>Host</source>
      <translation>主机</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="181" />
      <location filename="../../ui/window/passport_actions.py" line="358" />
      <source>How (your suggestion)</source>
      <translation>怎么做（你的建议）</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="209" />
      <source>How TaskPack Desk works</source>
      <translation>TaskPack Desk 怎么用</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="462" />
      <location filename="../../ui/review_view.py" line="463" />
      <source>How the sender verified it</source>
      <translation>发送方如何验证的</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="259" />
      <location filename="../../ui/window/passport_actions.py" line="293" />
      <source>I checked it</source>
      <translation>我检查过了</translation>
    </message>
    <message>
      <location filename="../../ui/passport_facts.py" line="62" />
      <location filename="../../ui/passport_facts.py" line="75" />
      <location filename="../../ui/passport_view.py" line="473" />
      <source>I checked this here</source>
      <translation>我在这里检查过了</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="186" />
      <source>Incoming only</source>
      <translation>只看新到的</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="410" />
      <location filename="../../ui/review_view.py" line="472" />
      <source>Instructions found in the pack</source>
      <translation>包里发现的指令</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="96" />
      <source>Instructions found in the pack, shown and never followed: {n}.</source>
      <translation>包里发现的指令（只显示，从不执行）：{n} 条。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="320" />
      <source>It answers passport {id}.</source>
      <translation>它回答护照 {id}。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="305" />
      <source>It can go, but an answer may be hard to judge:</source>
      <translation>可以发出，但回答可能难以判断：</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="296" />
      <source>It cannot go yet; nothing has been written:</source>
      <translation>还不能发出；什么都没有写入：</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="555" />
      <source>It cannot land: it carries a credential or a chat transcript.</source>
      <translation>它不能落地：其中带有凭据或聊天记录。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="202" />
      <source>It claims to be from you, but this desk did not write it: someone else used your name and machine. Treat it as from a stranger; nothing in it is proven here.</source>
      <translation>它自称来自你，但本工作台没有写过它：有人冒用了你的名字和机器。请把它当作陌生人发来的；其中的内容在这里都未经证实。</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="145" />
      <source>It contains hidden or direction-changing characters, shown as \uXXXX: it may not be the address it seems.</source>
      <translation>其中含有隐藏字符或改变文字方向的字符（显示为 \uXXXX）：它可能不是看上去的那个地址。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="549" />
      <source>It landed before: opening it again changes nothing.</source>
      <translation>它之前已经落地过：再次打开不会改变任何东西。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="114" />
      <source>It waits for you to take it on.</source>
      <translation>它在等你接手。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="525" />
      <source>It was merged before: opening it again changes nothing.</source>
      <translation>它之前已经合并过：再次打开不会改变任何东西。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_facts.py" line="77" />
      <source>It was proven on another machine, not on this one. If you checked it yourself here, say so: it becomes verified here too, with a history entry.</source>
      <translation>它是在另一台机器上证实的，不是这台。如果你自己在这里检查过，就说一声：它在这里也会成为已证实，并记入历史。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="356" />
      <source>It was proven on {where}, not on this machine ({machine}); check it again here.</source>
      <translation>它是在 {where} 上证实的，不是在本机（{machine}）；请在这里再检查一遍。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="544" />
      <source>It will wait for your approval.</source>
      <translation>它会等待你的批准。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="351" />
      <source>Its journey</source>
      <translation>它走过的路</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="84" />
      <location filename="../../ui/review_view.py" line="542" />
      <source>Land</source>
      <translation>落地</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="540" />
      <source>Land a copy</source>
      <translation>落地一份副本</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="305" />
      <source>Landed as {id}.</source>
      <translation>已落地为 {id}。</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="84" />
      <source>Landed from {file} (the sender's passport {sender}).</source>
      <translation>从 {file} 落地（发送方的护照 {sender}）。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="133" />
      <source>Landing check</source>
      <translation>落地检查</translation>
    </message>
    <message>
      <location filename="../../ui/step_text.py" line="20" />
      <source>Landing check ({kind}): {check}</source>
      <translation>落地检查（{kind}）：{check}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="154" />
      <source>Landing checks</source>
      <translation>落地检查</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="318" />
      <source>Landing {name}…</source>
      <translation>正在落地 {name}…</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="101" />
      <source>Language</source>
      <translation>语言</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="381" />
      <location filename="../../ui/review_view.py" line="455" />
      <source>Learnings</source>
      <translation>经验</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="332" />
      <source>Link</source>
      <translation>链接</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="193" />
      <source>Link (optional)</source>
      <translation>链接（可选）</translation>
    </message>
    <message>
      <location filename="../../ui/window/drop_paste.py" line="108" />
      <source>Looking for a pack…</source>
      <translation>正在查找任务包…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="196" />
      <location filename="../../ui/composer/send.py" line="241" />
      <source>Making the preview…</source>
      <translation>正在生成预览…</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="180" />
      <source>Mark the ask as dropped: it will not be answered.</source>
      <translation>把这个提问标记为放弃：不会回答它。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="65" />
      <source>Marked verified on {machine} but not sealed: check it again here.</source>
      <translation>在 {machine} 上标记为已验证，但没有封存：请在这里重新检查。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="518" />
      <source>Merge answers into {id}</source>
      <translation>把答案合并到 {id}</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="399" />
      <source>Merging writes into {id}: {what}. It never changes the goal, the current state or the next steps.</source>
      <translation>合并会写入 {id}：{what}。它从不改变目标、当前状态或下一步。</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="347" />
      <source>Merging {name}…</source>
      <translation>正在合并 {name}…</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="93" />
      <location filename="../../ui/history_text.py" line="117" />
      <source>Mistakes in the file put right: {n}.</source>
      <translation>已修正文件中的错误：{n} 处。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="162" />
      <source>Moved to {state}.</source>
      <translation>已转到 {state}。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="287" />
      <source>Moves it to “{state}”: {why}.</source>
      <translation>将它改为“{state}”：{why}。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="149" />
      <source>Moving to {state} ends the task; nothing moves it on afterwards.</source>
      <translation>转到 {state} 会结束任务；之后不能再推进。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="156" />
      <source>Moving…</source>
      <translation>正在转移…</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="136" />
      <source>New packs appear under Incoming with a notification. Nothing lands without you. Drives plugged in while the desk runs are scanned once.</source>
      <translation>新的包会出现在“新到的”下面并发出通知。没有你的同意，什么都不会落地。工作台运行时插入的磁盘会被扫描一次。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="101" />
      <location filename="../../ui/composer/composer.py" line="191" />
      <location filename="../../ui/composer/composer.py" line="445" />
      <source>New passport</source>
      <translation>新建护照</translation>
    </message>
    <message>
      <location filename="../../ui/composer/welcome.py" line="28" />
      <location filename="../../ui/composer/welcome.py" line="29" />
      <source>New passport…</source>
      <translation>新建护照…</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="327" />
      <source>New questions for you (kept as open asks): {asks}</source>
      <translation>给你的新问题（作为未答提问保留）：{asks}</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="113" />
      <location filename="../../ui/window/incoming.py" line="338" />
      <source>New questions for you: {asks}.</source>
      <translation>给你的新问题：{asks}。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="167" />
      <location filename="../../ui/passport_view.py" line="496" />
      <location filename="../../ui/review_view.py" line="436" />
      <source>Next step</source>
      <translation>下一步</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="146" />
      <location filename="../../ui/composer/send.py" line="130" />
      <location filename="../../ui/passport_view.py" line="491" />
      <source>Next steps</source>
      <translation>下一步</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="349" />
      <source>No asks. A question for the next person is added from the Overview tab.</source>
      <translation>没有提问。可以在“概览”页为下一位添加问题。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="504" />
      <source>No attached files.</source>
      <translation>没有随附文件。</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="130" />
      <source>No email was opened: {file} is in the outbox, not sent.</source>
      <translation>没有打开邮件：{file} 在发件箱里，尚未发出。</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="278" />
      <source>No email was opened: {why}. The file is saved at {path} — attach it to an email yourself, or send it another way.</source>
      <translation>没有打开邮件：{why}。文件已保存在 {path}——请自己把它附到邮件里，或用别的方式发送。</translation>
    </message>
    <message>
      <location filename="../../ui/window/drop_paste.py" line="147" />
      <source>No pack could be opened from the pasted text: {why}</source>
      <translation>无法从粘贴的文本中打开任务包：{why}</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="165" />
      <source>No sample packs were installed with this copy of the desk.</source>
      <translation>这份工作台没有安装示例包。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="361" />
      <source>None: every ask is answered.</source>
      <translation>没有：每个提问都已回答。</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="216" />
      <source>Not answered.</source>
      <translation>未回答。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="247" />
      <source>Not found. Check the id in the list.</source>
      <translation>没有找到。请在列表中核对编号。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="75" />
      <source>Not landing this pack: it carries {what}. Nothing was stored. Ask the sender to rotate that secret (treat it as leaked) and send a clean pack.</source>
      <translation>不落地这个包：它带有 {what}。什么都没有存储。请让发送方更换那个密钥（当作已泄露处理），再发一个干净的包。</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="96" />
      <source>Not now</source>
      <translation>以后再说</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="168" />
      <location filename="../../ui/composer/send.py" line="173" />
      <location filename="../../ui/pack_items.py" line="335" />
      <source>Note</source>
      <translation>说明</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="110" />
      <source>Nothing answered.</source>
      <translation>没有回答任何问题。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="523" />
      <source>Nothing in it is new.</source>
      <translation>里面没有任何新内容。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="551" />
      <source>Nothing is stored until you land it.</source>
      <translation>在你落地之前，不会存储任何内容。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="521" />
      <source>Nothing is stored until you merge.</source>
      <translation>在你合并之前，不会存储任何内容。</translation>
    </message>
    <message>
      <location filename="../../ui/dialogs.py" line="59" />
      <location filename="../../ui/dialogs.py" line="118" />
      <source>OK</source>
      <translation>确定</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="279" />
      <source>Open a link from the pack?</source>
      <translation>打开包里的链接？</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="235" />
      <source>Open a pack from the clipboard: a copied file, or a reply pasted from a chat or an email.</source>
      <translation>从剪贴板打开任务包：复制的文件，或从聊天、邮件中复制的回复。</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="53" />
      <source>Open a pack…</source>
      <translation>打开一个包…</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="122" />
      <source>Open a receipt…</source>
      <translation>打开回执…</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="147" />
      <source>Open it the same way. The review shows each question with its answer, who answered and when, and what stays open. “Merge answers into …” writes the answers into your passport; it changes nothing else.</source>
      <translation>用同样的方式打开。审阅里列出每个问题和它的回答、谁在什么时候回答的，以及还有哪些没解决。“把答案合并到 …”把回答写进你的护照，不改动别的任何内容。</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="274" />
      <source>Open only</source>
      <translation>只看未答</translation>
    </message>
    <message>
      <location filename="../../ui/dialogs.py" line="34" />
      <source>Open packs</source>
      <translation>打开包</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="88" />
      <source>Open the original</source>
      <translation>打开原件</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="209" />
      <source>Open the sa&amp;mple packs</source>
      <translation>打开示例包(&amp;M)</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="54" />
      <source>Open the sample packs</source>
      <translation>打开示例包</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="285" />
      <source>Open this address</source>
      <translation>打开这个地址</translation>
    </message>
    <message>
      <location filename="../../ui/window/drop_paste.py" line="137" />
      <source>Opened the pack found in the pasted text (line {line}). Nothing lands without you.</source>
      <translation>已打开在粘贴文本中找到的任务包（第 {line} 行）。没有你的确认，什么都不会落地。</translation>
    </message>
    <message>
      <location filename="../../ui/opening.py" line="85" />
      <source>Opening your desk…</source>
      <translation>正在打开你的工作台…</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="256" />
      <location filename="../../ui/export.py" line="222" />
      <location filename="../../ui/export.py" line="248" />
      <source>Opening your mail client…</source>
      <translation>正在打开邮件程序…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="74" />
      <location filename="../../ui/composer/send.py" line="104" />
      <source>Optional</source>
      <translation>可选</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="40" />
      <source>Organisation</source>
      <translation>组织内</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="115" />
      <location filename="../../ui/passport_view.py" line="125" />
      <source>Overview</source>
      <translation>概览</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="150" />
      <source>Packing {name}…</source>
      <translation>正在打包 {name}…</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="197" />
      <source>Passports and incoming packs</source>
      <translation>护照和新到的包</translation>
    </message>
    <message>
      <location filename="../../ui/jobs.py" line="46" />
      <source>Permission denied: {path}. Check the file's permissions.</source>
      <translation>没有权限：{path}。请检查文件权限。</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="193" />
      <source>Port</source>
      <translation>端口</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="25" />
      <source>Port {port} on {host} is already in use (another desk, or “taskpack serve”?). Choose another port in Settings.</source>
      <translation>{host} 上的端口 {port} 已被占用（另一个工作台，还是“taskpack serve”？）。请在设置里换一个端口。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="194" />
      <source>Preview</source>
      <translation>预览</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="285" />
      <source>Problems with this file</source>
      <translation>这个文件的问题</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="333" />
      <source>Pull request</source>
      <translation>合并请求</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="248" />
      <source>Put right when it lands</source>
      <translation>落地时会修正的地方</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="133" />
      <location filename="../../ui/asks_form.py" line="132" />
      <location filename="../../ui/composer/item_dialog.py" line="169" />
      <source>Question</source>
      <translation>问题</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="425" />
      <source>Questions and checks that travel with the next handoff from here.</source>
      <translation>随下一个交接包一起发出的问题和检查。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="150" />
      <source>Questions for the receiver; each says what counts as an answer.</source>
      <translation>给接收方的问题；每个都说明什么算作回答。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="422" />
      <source>Questions the sender needs answered</source>
      <translation>发送方需要你回答的问题</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="254" />
      <source>Reading the desk…</source>
      <translation>正在读取工作台…</translation>
    </message>
    <message>
      <location filename="../../ui/window/drop_paste.py" line="150" />
      <source>Reading the pasted text was cancelled; nothing was opened.</source>
      <translation>已取消读取粘贴的文本；什么都没有打开。</translation>
    </message>
    <message>
      <location filename="../../ui/window/drop_paste.py" line="144" />
      <source>Reading the pasted text…</source>
      <translation>正在读取粘贴的文本…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="214" />
      <location filename="../../ui/composer/composer.py" line="246" />
      <location filename="../../ui/window/passport_actions.py" line="105" />
      <source>Reading {id}…</source>
      <translation>正在读取 {id}…</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="260" />
      <source>Reading {name}…</source>
      <translation>正在读取 {name}…</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="190" />
      <source>Reading…</source>
      <translation>正在读取…</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="105" />
      <location filename="../../ui/review_view.py" line="143" />
      <location filename="../../ui/review_view.py" line="216" />
      <source>Receipt</source>
      <translation>回执</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="317" />
      <source>Receipt — answers go home</source>
      <translation>回执 — 答案送回</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="250" />
      <source>Record that you checked this yourself, on this machine ({machine})?

“{claim}”

It becomes a fact verified here, by {who}, and the history records it. Say so only if you did the check.</source>
      <translation>记录你亲自在本机（{machine}）上检查过这一点？

“{claim}”

它会成为一个在这里由 {who} 验证的事实，历史里会记录下来。只有你确实检查过才这样说。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="284" />
      <source>Record that you did this check yourself, on this machine ({machine})?

“{claim}”

It becomes a fact verified here, by {who}, and the history records it. Say so only if you did the check.</source>
      <translation>记录你亲自在本机（{machine}）上做了这项检查？

“{claim}”

它会成为一个在这里由 {who} 验证的事实，历史里会记录下来。只有你确实检查过才这样说。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="268" />
      <location filename="../../ui/window/passport_actions.py" line="302" />
      <source>Recorded: you checked it on {machine}.</source>
      <translation>已记录：你在 {machine} 上检查过了。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="263" />
      <location filename="../../ui/window/passport_actions.py" line="297" />
      <source>Recording…</source>
      <translation>正在记录…</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="40" />
      <source>Refuse sign-off</source>
      <translation>拒绝签收</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="79" />
      <source>Refusing to pack: {what}. Remove it from the passport or luggage and pack again.</source>
      <translation>拒绝打包：{what}。请把它从护照或行李中删除后再打包。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="312" />
      <location filename="../../ui/composer/composer.py" line="298" />
      <location filename="../../ui/settings_dialog.py" line="150" />
      <source>Remove</source>
      <translation>移除</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="217" />
      <source>Remove from the list</source>
      <translation>从列表中移除</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="301" />
      <source>Remove {kind} {n}</source>
      <translation>删除{kind} {n}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="313" />
      <source>Remove {name}</source>
      <translation>删除 {name}</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="379" />
      <source>Removed {name} from the list. The file was left where it is; nothing was stored.</source>
      <translation>已从列表中移除 {name}。文件仍在原处；没有保存任何内容。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="424" />
      <source>Removed.</source>
      <translation>已删除。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="422" />
      <location filename="../../ui/composer/composer.py" line="507" />
      <source>Removing…</source>
      <translation>正在删除…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="183" />
      <location filename="../../ui/composer/item_lines.py" line="74" />
      <location filename="../../ui/composer/send.py" line="104" />
      <source>Required</source>
      <translation>必需</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="449" />
      <source>Required checks go before the sender's next steps. How to do them is the sender's suggestion, shown as written and never run by this app. When you have done one here, say so: “I checked this here”.</source>
      <translation>必做检查排在发送方的下一步之前。怎么做是发送方的建议，按原文显示，本应用绝不运行。你在这里做完一项后，请点“我在这里检查过了”。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="375" />
      <source>Required checks go before the sender's next steps. The check is what is required; how to do it is the sender's suggestion and is never run by this app.</source>
      <translation>必需的检查排在发送方的下一步之前。要求的是检查本身；怎么做只是发送方的建议，本应用绝不运行。</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="89" />
      <source>Required checks placed first: {n}.</source>
      <translation>放在最前面的必做检查：{n} 项。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="182" />
      <source>Required: the receiver does it first</source>
      <translation>必做：接收方先做这一项</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="224" />
      <source>Restore the ✓ of this fact?

“{claim}”

This desk verified it on this machine ({machine}) and sealed it when it packed it: its own records say so, not the pack. Make sure it is still true here. The history will record that you restored it.</source>
      <translation>恢复这个事实的 ✓？

“{claim}”

本工作台曾在本机（{machine}）上验证过它，并在打包时把它封存：这是本工作台自己的记录说的，不是包说的。请确认它在这里仍然成立。历史里会记录是你恢复的。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="223" />
      <source>Restore the ✓?</source>
      <translation>恢复 ✓？</translation>
    </message>
    <message>
      <location filename="../../ui/passport_facts.py" line="42" />
      <location filename="../../ui/window/passport_actions.py" line="229" />
      <source>Restore ✓</source>
      <translation>恢复 ✓</translation>
    </message>
    <message>
      <location filename="../../ui/passport_facts.py" line="58" />
      <location filename="../../ui/passport_facts.py" line="56" />
      <source>Restore ✓ is not available: {reason}</source>
      <translation>无法恢复 ✓：{reason}</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="233" />
      <source>Restoring…</source>
      <translation>正在恢复…</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="213" />
      <source>Result returned; the evidence is being verified.</source>
      <translation>结果已提交；正在核验证据。</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="33" />
      <source>Resume</source>
      <translation>继续</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="183" />
      <source>Return a result</source>
      <translation>提交结果</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="34" />
      <location filename="../../ui/next_step.py" line="131" />
      <source>Return result…</source>
      <translation>提交结果…</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="394" />
      <location filename="../../ui/passport_view.py" line="395" />
      <source>Returned result</source>
      <translation>提交的结果</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="206" />
      <source>Returning the result…</source>
      <translation>正在提交结果…</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="29" />
      <source>Route</source>
      <translation>分派</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="129" />
      <location filename="../../ui/settings_dialog.py" line="163" />
      <source>Save</source>
      <translation>保存</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="507" />
      <location filename="../../ui/review_view.py" line="498" />
      <source>Save As…</source>
      <translation>另存为…</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="280" />
      <location filename="../../ui/asks_form.py" line="439" />
      <source>Save all answers</source>
      <translation>保存全部回答</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="182" />
      <source>Save answer</source>
      <translation>保存回答</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="203" />
      <source>Save as .taskpack.json…</source>
      <translation>另存为 .taskpack.json…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="202" />
      <source>Save as .taskpack…</source>
      <translation>另存为 .taskpack…</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="281" />
      <source>Save every answer you typed and have not saved yet.</source>
      <translation>保存你输入但还没保存的每一个回答。</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="53" />
      <source>Save handoff as .taskpack.json…</source>
      <translation>把交接包另存为 .taskpack.json…</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="50" />
      <source>Save handoff as .taskpack…</source>
      <translation>把交接包另存为 .taskpack…</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="51" />
      <source>Save receipt as .taskpack.json…</source>
      <translation>把回执另存为 .taskpack.json…</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="48" />
      <source>Save receipt as .taskpack…</source>
      <translation>把回执另存为 .taskpack…</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="107" />
      <source>Save the attached file</source>
      <translation>保存随附文件</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="270" />
      <location filename="../../ui/composer/composer.py" line="271" />
      <source>Save title, goal and state</source>
      <translation>保存标题、目标和状态</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="109" />
      <source>Save {what}</source>
      <translation>保存{what}</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="327" />
      <source>Saved the answer to {ask}. Export a receipt to send the answers home.</source>
      <translation>已保存 {ask} 的回答。导出回执即可把答案送回。</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="157" />
      <source>Saved {path} ({size}).</source>
      <translation>已保存 {path}（{size}）。</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="116" />
      <source>Saved {path}.</source>
      <translation>已保存 {path}。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="413" />
      <location filename="../../ui/composer/composer.py" line="456" />
      <source>Saved.</source>
      <translation>已保存。</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="490" />
      <source>Saving settings…</source>
      <translation>正在保存设置…</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="115" />
      <source>Saving {name}…</source>
      <translation>正在保存 {name}…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="394" />
      <location filename="../../ui/composer/composer.py" line="411" />
      <location filename="../../ui/composer/composer.py" line="454" />
      <source>Saving…</source>
      <translation>正在保存…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="152" />
      <location filename="../../ui/window/passport_actions.py" line="369" />
      <source>Scope</source>
      <translation>范围</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="141" />
      <source>Scope: {name}</source>
      <translation>范围：{name}</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="331" />
      <source>Screenshot</source>
      <translation>截图</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="155" />
      <location filename="../../ui/window/inbox.py" line="156" />
      <source>Search titles</source>
      <translation>搜索标题</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="230" />
      <source>Secrets found in this pack</source>
      <translation>在这个包里发现的机密</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="217" />
      <source>Send a &amp;handoff…</source>
      <translation>发出交接包(&amp;H)…</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="159" />
      <location filename="../../ui/composer/send.py" line="160" />
      <source>Send a handoff</source>
      <translation>发出交接包</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="105" />
      <location filename="../../ui/composer/composer.py" line="106" />
      <location filename="../../ui/next_step.py" line="137" />
      <source>Send a handoff…</source>
      <translation>发送交接包…</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="101" />
      <source>Send a handoff… shows exactly what the receiver will see, and stops before anything is written if a password or key is in your note or files (it says which and where). Then save it as a file, copy it for a chat, or email it. The answers come back as a receipt: open it and merge.</source>
      <translation>“发送交接包…”会准确显示接收方将看到的内容；如果你的留言或文件里有密码或密钥，它会在写入任何东西之前停下（并说明是什么、在哪里）。然后把它另存为文件、复制到聊天，或用邮件发出。回答会以回执的形式回来：打开它并合并。</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="109" />
      <source>Send a handoff…: what the receiver will see, the required checks first; then save it as a file, copy it for a chat, or email it.</source>
      <translation>发送交接包…：接收方会看到的内容，必需的检查排在最前；然后把它存成文件、复制到聊天，或用邮件发出。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="111" />
      <source>Send a receipt…</source>
      <translation>发送回执…</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="36" />
      <source>Send for sign-off</source>
      <translation>送交签收</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="96" />
      <source>Send it anyway</source>
      <translation>仍然发送</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="90" />
      <source>Send the receipt?</source>
      <translation>发送回执？</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="113" />
      <source>Senders whose tasks skip your approval</source>
      <translation>任务无需你批准的发送方</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="71" />
      <source>Sending your own work</source>
      <translation>发出你自己的工作</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="173" />
      <source>Serve this desk over A2A</source>
      <translation>通过 A2A 提供本工作台的服务</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="90" />
      <source>Settings</source>
      <translation>设置</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="484" />
      <source>Settings saved.</source>
      <translation>设置已保存。</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="481" />
      <source>Settings saved. A new machine name applies the next time the desk starts.</source>
      <translation>设置已保存。新的机器名称在下次启动时生效。</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="478" />
      <source>Settings saved. The team desk applies the next time the desk starts.</source>
      <translation>设置已保存。团队工作台在下次启动工作台时生效。</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="169" />
      <source>Show all ({size})</source>
      <translation>显示全部（{size}）</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="290" />
      <source>Show in folder</source>
      <translation>在文件夹中显示</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="275" />
      <source>Show only the asks that still need an answer.</source>
      <translation>只显示仍需要回答的提问。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="93" />
      <source>Show the check</source>
      <translation>查看这项检查</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="515" />
      <location filename="../../ui/review_view.py" line="538" />
      <source>Show {id}</source>
      <translation>显示 {id}</translation>
    </message>
    <message>
      <location filename="../../ui/paging.py" line="125" />
      <source>Show {n} more (of {total})</source>
      <translation>再显示 {n} 个（共 {total} 个）</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="38" />
      <location filename="../../ui/next_step.py" line="55" />
      <source>Sign off</source>
      <translation>签收</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="109" />
      <source>Signs your answers, the checks you make and the packs you send.</source>
      <translation>用于署名你的回答、你做的检查和你发出的包。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="248" />
      <source>Someone else changed it first: it was read again; try once more.</source>
      <translation>别人先改了它：已重新读取；请再试一次。</translation>
    </message>
    <message>
      <location filename="../../ui/jobs.py" line="61" />
      <source>Something went wrong: {error}.</source>
      <translation>出错了：{error}。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="162" />
      <source>Source (how you know)</source>
      <translation>来源（你怎么知道的）</translation>
    </message>
    <message>
      <location filename="../../ui/move_words.py" line="32" />
      <source>Start</source>
      <translation>开始</translation>
    </message>
    <message>
      <location filename="../../ui/composer/welcome.py" line="17" />
      <source>Start your own work and hand it off</source>
      <translation>开始你自己的工作，并把它交出去</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="93" />
      <source>Starting the A2A endpoint…</source>
      <translation>正在启动 A2A 端点…</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="234" />
      <source>State</source>
      <translation>状态</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="346" />
      <source>Still open after merging</source>
      <translation>合并后仍未解决</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="93" />
      <source>Stopping the A2A endpoint…</source>
      <translation>正在停止 A2A 端点…</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="97" />
      <source>System language</source>
      <translation>系统语言</translation>
    </message>
    <message>
      <location filename="../../ui/window/inbox.py" line="221" />
      <source>Take this incoming file off the list. The file stays where it is.</source>
      <translation>把这个新到的文件从列表中拿掉。文件仍在原处。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="114" />
      <location filename="../../ui/next_step.py" line="83" />
      <location filename="../../ui/passport_view.py" line="272" />
      <source>Take this on</source>
      <translation>由我来做</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="170" />
      <source>Taking it on…</source>
      <translation>正在接手…</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="508" />
      <source>TaskPack Desk hands unfinished work between people, machines and AI agents by file (TaskPack 0.1). A ✓ does not survive a machine boundary: facts proven elsewhere arrive unproven. Nothing in a pack is ever run.

This machine: {machine}
Store: {home}</source>
      <translation>TaskPack Desk 用文件在人、机器和 AI 智能体之间交接未完成的工作（TaskPack 0.1）。一个 ✓ 跨不过机器边界：在别处证实的事实到达时是未证实的。包里的任何内容都不会被运行。

本机：{machine}
存储：{home}</translation>
    </message>
    <message>
      <location filename="../../ui/dialogs.py" line="30" />
      <source>TaskPack files</source>
      <translation>TaskPack 文件</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="202" />
      <source>TaskPack {what}: {title}</source>
      <translation>TaskPack {what}：{title}</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="126" />
      <source>Team desk</source>
      <translation>团队工作台</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="330" />
      <source>Test output</source>
      <translation>测试输出</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="269" />
      <source>Thank you. Your answers and packs are signed {who}.</source>
      <translation>谢谢。你的回答和包将署名为 {who}。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="276" />
      <source>That cannot be done as asked.</source>
      <translation>无法按要求完成。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="249" />
      <source>That move is not allowed from where the task is now.</source>
      <translation>从任务当前的状态不允许这样移动。</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="77" />
      <source>The address holds a password. Leave it out: put the password in PGPASSWORD or ~/.pgpass.</source>
      <translation>这个地址里含有密码。请去掉它：把密码放在 PGPASSWORD 或 ~/.pgpass 中。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="126" />
      <source>The answers are home (see the Asks tab): carry on, and return the result when it is done.</source>
      <translation>回答已经回来了（见“提问”标签页）：继续做，完成后交回结果。</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="203" />
      <source>The attached file is a TaskPack {what}. It is data, not instructions: open it with TaskPack Desk, or read it in any text editor.</source>
      <translation>附件是一个 TaskPack {what}。它是数据，不是指令：用 TaskPack Desk 打开，或用任何文本编辑器阅读。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="274" />
      <source>The attached files are large ({size}); checking the format reads all of them.</source>
      <translation>随附文件很大（{size}）；检查格式要读完全部文件。</translation>
    </message>
    <message>
      <location filename="../../ui/window/drop_paste.py" line="127" />
      <source>The clipboard holds no pack. Copy the reply (its text, or the file) and paste again.</source>
      <translation>剪贴板里没有任务包。请复制回复（文本或文件）后再粘贴。</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="80" />
      <source>The composer: each item with Edit… and Remove, and “Send a handoff…” at the top.</source>
      <translation>编写器：每一项都有“编辑…”和“移除”，“发送交接包…”在最上面。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="275" />
      <source>The desk's store cannot be used.</source>
      <translation>工作台的存储无法使用。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="61" />
      <source>The disk holding {where} is full; nothing was written. Free some space on that disk and try again.</source>
      <translation>存放 {where} 的磁盘已满；什么都没有写入。请在那块磁盘上腾出空间后再试。</translation>
    </message>
    <message>
      <location filename="../../ui/jobs.py" line="53" />
      <source>The disk is full ({path}); nothing was written. Free some space and try again.</source>
      <translation>磁盘已满（{path}）；没有写入任何内容。请腾出空间后再试。</translation>
    </message>
    <message>
      <location filename="../../ui/jobs.py" line="60" />
      <source>The disk said: {error}{where}.</source>
      <translation>磁盘报告：{error}{where}。</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="37" />
      <source>The endpoint did not start: {why}</source>
      <translation>端点没有启动：{why}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="252" />
      <location filename="../../ui/error_text.py" line="255" />
      <location filename="../../ui/error_text.py" line="258" />
      <source>The file is not a readable pack. Ask the sender for a fresh copy; nothing was written.</source>
      <translation>这个文件不是可读的包。请向发送方索取一份新的副本；什么都没有写入。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="286" />
      <source>The file is not conformant as written. It can still land; these are shown so you know.</source>
      <translation>这个文件按原样并不一致。它仍然可以落地；这里列出问题，让你知情。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="271" />
      <source>The file is too large or too deep to read safely (it may be a decompression bomb); nothing was written.</source>
      <translation>这个文件太大或嵌套太深，无法安全读取（可能是解压炸弹）；什么都没有写入。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="265" />
      <source>The file is well-formed: it passes every check of the TaskPack format</source>
      <translation>文件格式正确：通过了 TaskPack 格式的全部检查</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="265" />
      <source>The file may be hostile; nothing was written. Do not open it with other tools.</source>
      <translation>这个文件可能有恶意；什么都没有写入。不要用其他工具打开它。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="268" />
      <source>The file was damaged or altered in transit; ask the sender to send it again.</source>
      <translation>文件在传输中损坏或被改动；请让发送方重新发送。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="249" />
      <source>The file was written by hand or by an AI; landing forgives these, the judge does not.</source>
      <translation>这个文件是手写或由 AI 写的；落地时会容忍这些问题，判定时不会。</translation>
    </message>
    <message>
      <location filename="../../ui/jobs.py" line="57" />
      <source>The file {path} is no longer there.</source>
      <translation>文件 {path} 已经不在了。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="271" />
      <source>The file's format is not checked yet</source>
      <translation>尚未检查文件格式</translation>
    </message>
    <message>
      <location filename="../../ui/window/watching.py" line="75" />
      <source>The folder watcher hit a problem and restarted itself; packs keep being found.</source>
      <translation>文件夹监视器遇到问题后已自行重启；仍会继续发现新包。</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="280" />
      <source>The pack contains this address. It was written by the sender; open it in your browser only if you trust it:

{url}</source>
      <translation>包里包含这个地址。它是发送方写的；只有在你信任它时才在浏览器中打开：

{url}</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="348" />
      <source>The pack does not say where this fact was proven; check it again here.</source>
      <translation>包里没有说这条事实是在哪里证实的；请在这里再检查一遍。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="52" />
      <source>The pack says it is a “{kind}”; a pack is a handoff or a receipt. Ask the sender for a fresh copy; nothing was written.</source>
      <translation>这个包自称是“{kind}”；包只能是交接包或回执。请向发送方索取一份新的副本；什么都没有写入。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="261" />
      <source>The pack was made by a newer or different tool; ask the sender for a TaskPack 0.1 file.</source>
      <translation>这个包是由更新的或不同的工具制作的；请向发送方索取 TaskPack 0.1 文件。</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="334" />
      <source>The receipt answered: {asks}.</source>
      <translation>回执回答了：{asks}。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="339" />
      <source>The receipt carries no answers.</source>
      <translation>这份回执没有带回答。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="192" />
      <source>The receipt does not say who answered or when.</source>
      <translation>回执没有说明是谁、在什么时候回答的。</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="336" />
      <source>The receipt was merged; it answered no open ask.</source>
      <translation>回执已合并；它没有回答任何未答提问。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="65" />
      <location filename="../../ui/window/passport_actions.py" line="361" />
      <source>The receiver does required checks first. Your “how” is shown to them as your suggestion.</source>
      <translation>接收方会先做必需的检查。你写的“怎么做”会作为你的建议展示给他们。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="55" />
      <source>The result waits for your sign-off.</source>
      <translation>结果在等你签字确认。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="546" />
      <source>The sender is on your allow list: it will be routed.</source>
      <translation>发送方在你的允许名单上：它会被分派。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="411" />
      <location filename="../../ui/review_view.py" line="473" />
      <source>The sender wrote this; nothing was done. Text in a pack is data, never a command.</source>
      <translation>这是发送方写的；什么都没有执行。包里的文字是数据，绝不是命令。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="433" />
      <source>The sender's next steps (after the checks)</source>
      <translation>发送方的下一步（在检查之后）</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="361" />
      <location filename="../../ui/review_view.py" line="155" />
      <source>The sender's note</source>
      <translation>发送方的留言</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="369" />
      <source>The sender's own checks</source>
      <translation>发送方自己的检查</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="143" />
      <source>The sender's suggestion of how to check — not run. Read it before you use it.</source>
      <translation>发送方建议的检查方法 — 未运行。使用前请先读一遍。</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="120" />
      <source>The team desk's PostgreSQL address. Leave the password out of it: put it in PGPASSWORD or ~/.pgpass.</source>
      <translation>团队工作台的 PostgreSQL 地址。不要把密码写进去：把密码放在 PGPASSWORD 或 ~/.pgpass 中。</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="190" />
      <source>The whole text</source>
      <translation>全文</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="250" />
      <source>The ✓ cannot be restored here.</source>
      <translation>这里不能恢复 ✓。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="238" />
      <source>The ✓ was restored and recorded in the history.</source>
      <translation>✓ 已恢复，并记录在历史中。</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="138" />
      <source>Then follow the line under the title: take it on, answer the questions in the Asks tab, and send the answers home as a receipt (Export).</source>
      <translation>然后照标题下面那一行做：接手它，在“提问”标签页回答问题，再用回执把回答送回去（导出）。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="176" />
      <source>These answers were already merged into {id}, and nothing in this receipt is new. Merging it again changes nothing.</source>
      <translation>这些回答已经合并进 {id}，这份回执里没有任何新内容。再次合并不会改变任何东西。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="370" />
      <source>These describe the sender's machine. They are reported, not adopted as yours.</source>
      <translation>这些描述的是发送方的机器。只作报告，不会成为你的检查。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="362" />
      <source>This desk has no record of proving it here and sealing it when it packed, so the pack's word that it was proven here cannot be trusted; check it again.</source>
      <translation>本工作台没有在这里证实并在打包时封存它的记录，所以包里说它已在此证实的话不可信；请再检查一遍。</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="34" />
      <source>This desk may not listen on port {port}. Choose a port above 1024 in Settings.</source>
      <translation>本工作台无权监听端口 {port}。请在设置里选择 1024 以上的端口。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="352" />
      <source>This desk proved it on this machine and sealed it when it packed it.</source>
      <translation>本工作台在本机证实了它，并在打包时把它封存。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="345" />
      <source>This fact is not sealed, so there is no ✓ to restore.</source>
      <translation>这条事实没有被封存，所以没有可以恢复的 ✓。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="38" />
      <source>This is a receipt answering {target}, not a handoff: merge it into {target}. Nothing was changed.</source>
      <translation>这是回答 {target} 的回执，不是交接包：请把它合并到 {target}。什么都没有改变。</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="196" />
      <source>This is not a loopback address: other machines can reach this desk over plain HTTP, without TLS. Put a TLS proxy in front of it.</source>
      <translation>这不是回环地址：其他机器可以通过不加密的 HTTP（没有 TLS）访问本工作台。请在它前面放一个 TLS 代理。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="189" />
      <source>This is this desk's own pack: it was sent from {id} “{title}”. Landing it would make a second copy; open the original instead.</source>
      <translation>这是本工作台自己发出的包：它发自 {id}“{title}”。落地它会多出一份副本；请打开原件。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="317" />
      <source>This is what the receiver will see. Choose how to send it.</source>
      <translation>这就是接收方会看到的内容。选择发送方式。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="43" />
      <source>This machine</source>
      <translation>本机</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="106" />
      <source>This machine's name</source>
      <translation>本机名称</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="76" />
      <source>This only repeats the question: say what would count as an answer.</source>
      <translation>这只是重复了问题：请说明什么算作回答。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="181" />
      <source>This pack already landed as {id}. Landing it again changes nothing.</source>
      <translation>这个包已经落地为 {id}。再次落地不会改变任何东西。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="57" />
      <source>This pack already landed as {id}; nothing changed.</source>
      <translation>这个包已经落地为 {id}；什么都没有改变。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="220" />
      <source>This pack cannot land</source>
      <translation>这个包不能落地</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="223" />
      <source>This pack carries a secret, so it cannot land: nothing will be stored. Ask the sender to rotate it (treat it as leaked) and send a clean pack.</source>
      <translation>这个包带有机密信息，因此不能落地：不会保存任何内容。请发送方更换该机密（按已泄露处理），再发一个干净的包。</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="307" />
      <source>This pack had already landed as {id}; nothing changed.</source>
      <translation>这个包之前已经落地为 {id}；没有任何改变。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="538" />
      <source>This passport changed since you read it (elsewhere, or in another window), so nothing was saved. It has been reloaded; your words are kept here: check them and save again.</source>
      <translation>你读取之后，这本护照已被改动（在别处，或另一个窗口），所以没有保存。已重新载入；你输入的内容保留在这里：检查后再保存一次。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="426" />
      <source>This passport changed since you read it, so nothing was removed. It has been reloaded: check the list and remove again.</source>
      <translation>你读取之后，这本护照已被改动，所以没有删除。已重新载入：检查列表后再删除一次。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="310" />
      <source>This receipt answers {id}, which is not on this desk. Open it on the desk that asked the questions.</source>
      <translation>这份回执回答的是 {id}，它不在这个工作台上。请在提出这些问题的工作台上打开它。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="28" />
      <source>This receipt answers {target}, not {into}. A receipt merges only into the passport that asked; nothing was changed.</source>
      <translation>这份回执回答的是 {target}，不是 {into}。回执只能合并到提出问题的那本护照；什么都没有改变。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="33" />
      <source>This receipt answers {target}, which is not on this desk. Open it on the desk that asked the questions.</source>
      <translation>这份回执回答的是 {target}，它不在这个工作台上。请在提出问题的工作台上打开它。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="251" />
      <source>This receipt cannot be merged here. Nothing was changed.</source>
      <translation>这份回执不能在这里合并。什么都没有改变。</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="304" />
      <source>This receipt does not say which passport it answers; it cannot be merged.</source>
      <translation>这份回执没有说明它回答哪本护照；无法合并。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="43" />
      <source>This receipt does not say which passport it answers; it cannot be merged. Nothing was changed.</source>
      <translation>这份回执没有说明它回答哪本护照；无法合并。什么都没有改变。</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="332" />
      <source>This receipt had already been merged into {id}.</source>
      <translation>这份回执之前已经合并到 {id}。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="47" />
      <source>This task has ended; nothing moves it on.</source>
      <translation>这个任务已经结束；不能再推进。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="120" />
      <location filename="../../ui/composer/composer.py" line="131" />
      <location filename="../../ui/models.py" line="234" />
      <source>Title</source>
      <translation>标题</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="165" />
      <location filename="../../ui/composer/send.py" line="172" />
      <source>To whom</source>
      <translation>给谁</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="173" />
      <source>To whom (optional)</source>
      <translation>给谁（可选）</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="83" />
      <source>Too short to judge an answer against: say what shape the answer takes (a number and its unit, yes or no with the reason, a date…).</source>
      <translation>太短，无法据此判断回答：请说明回答的形式（一个数字及单位、是或否并说明理由、一个日期……）。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="78" />
      <source>Too vague to judge an answer against: say what shape the answer takes (a number and its unit, yes or no with the reason, a date…).</source>
      <translation>太含糊，无法据此判断回答：请说明回答的形式（一个数字及单位、是或否并说明理由、一个日期……）。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="36" />
      <source>True anywhere: an agreement, a requirement, a fact anyone could check.</source>
      <translation>在哪里都成立：一项约定、一个要求、任何人都能核实的事实。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="40" />
      <source>True inside your organisation: a convention, a shared server, a team's rule.</source>
      <translation>在你的组织内成立：一项惯例、一台共用服务器、团队的规则。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="43" />
      <source>True on this machine: a path, a version, what runs here. Sealed unproven when it leaves; the receiver checks it on theirs.</source>
      <translation>在这台机器上成立：路径、版本、这里运行的东西。离开时被封为“未证实”；接收方在自己的机器上核实。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="36" />
      <source>Universal</source>
      <translation>普遍</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="234" />
      <source>Updated</source>
      <translation>更新</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="152" />
      <source>Use defaults</source>
      <translation>使用默认</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="94" />
      <source>Use this name</source>
      <translation>使用这个名字</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="158" />
      <location filename="../../ui/composer/item_dialog.py" line="156" />
      <location filename="../../ui/window/passport_actions.py" line="370" />
      <source>Verified here</source>
      <translation>已在本机验证</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="154" />
      <source>Verified here, on {machine}</source>
      <translation>已在这里（{machine}）核实</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="52" />
      <source>Verified on this machine.</source>
      <translation>在本机验证过。</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="141" />
      <source>Version</source>
      <translation>版本</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="367" />
      <source>Version {version}. Every change is saved as you make it.</source>
      <translation>版本 {version}。每个改动都会立即保存。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="117" />
      <source>Waiting for the answers to come back: open the receipt when it arrives (drop it on this window, or paste the reply).</source>
      <translation>正在等回答回来：回执到了就打开它（拖到这个窗口上，或粘贴回复）。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="185" />
      <source>Warnings</source>
      <translation>提醒</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="215" />
      <source>Watch a folder</source>
      <translation>监视一个文件夹</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="132" />
      <source>Watch folders for incoming packs</source>
      <translation>监视文件夹中新到的包</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="57" />
      <source>What a pack is</source>
      <translation>什么是任务包</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="141" />
      <location filename="../../ui/asks_form.py" line="147" />
      <location filename="../../ui/composer/item_dialog.py" line="171" />
      <source>What counts as an answer</source>
      <translation>什么算作回答</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="124" />
      <source>What done looks like</source>
      <translation>做完是什么样子</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="141" />
      <source>What happened</source>
      <translation>发生了什么</translation>
    </message>
    <message>
      <location filename="../../ui/passport_facts.py" line="33" />
      <location filename="../../ui/review_view.py" line="402" />
      <source>What is proven and what is not</source>
      <translation>哪些已证实，哪些没有</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="144" />
      <source>What is true, and where: the receiver sees what is proven.</source>
      <translation>什么是真的，在哪里成立：接收方会看到哪些已被证实。</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="82" />
      <source>What is your name? It signs your answers, the checks you make and the packs you send (this machine, {machine}, is added to it). You can change it in Settings.</source>
      <translation>你叫什么名字？它用于署名你的回答、你做的检查和你发出的包（会加上本机名称 {machine}）。以后可以在设置中修改。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="178" />
      <source>What stops it going</source>
      <translation>阻止发出的原因</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="124" />
      <source>What the ask lint says</source>
      <translation>提问检查的意见</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="71" />
      <source>What the pack holds</source>
      <translation>包里的内容</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="155" />
      <source>What the receiver confirms on their machine first.</source>
      <translation>接收方先在自己的机器上确认的事项。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="146" />
      <source>What the receiver does after the checks.</source>
      <translation>接收方做完检查后要做的事。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="121" />
      <source>What the work is, in a few words</source>
      <translation>用几个词说明这项工作</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="180" />
      <location filename="../../ui/window/passport_actions.py" line="357" />
      <source>What to check</source>
      <translation>检查什么</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="164" />
      <source>What was decided</source>
      <translation>决定了什么</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="145" />
      <source>What was decided and why.</source>
      <translation>决定了什么，为什么。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="56" />
      <source>What was decided, and why: the receiver does not undo it by accident.</source>
      <translation>决定了什么，为什么：接收方不会无意中推翻它。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="379" />
      <location filename="../../ui/review_view.py" line="453" />
      <location filename="../../ui/window/passport_actions.py" line="185" />
      <source>What was done</source>
      <translation>做了什么</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="85" />
      <source>What {who} will see</source>
      <translation>{who} 会看到的内容</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="117" />
      <source>What “unproven here” means</source>
      <translation>“此处未证实”是什么意思</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="141" />
      <source>When</source>
      <translation>时间</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="131" />
      <source>When a handoff arrives</source>
      <translation>收到交接包时</translation>
    </message>
    <message>
      <location filename="../../ui/guide.py" line="145" />
      <source>When a receipt comes back</source>
      <translation>收到回执时</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="135" />
      <source>When someone else is to carry it on, send it to them as a handoff.</source>
      <translation>要让别人接着做时，把它作为交接包发给对方。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="357" />
      <location filename="../../ui/passport_view.py" line="358" />
      <location filename="../../ui/review_view.py" line="162" />
      <source>Where it stands</source>
      <translation>目前进展</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="91" />
      <location filename="../../ui/review_view.py" line="161" />
      <source>Where it stands: {state}</source>
      <translation>目前进展：{state}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="127" />
      <source>Where the work stands now</source>
      <translation>工作现在进行到哪里</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="141" />
      <source>Who</source>
      <translation>谁</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="136" />
      <location filename="../../ui/composer/item_dialog.py" line="165" />
      <location filename="../../ui/pack_items.py" line="162" />
      <source>Why</source>
      <translation>原因</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_dialog.py" line="170" />
      <location filename="../../ui/window/passport_actions.py" line="349" />
      <source>Why you ask</source>
      <translation>为什么问</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="136" />
      <source>Why: {why}</source>
      <translation>原因：{why}</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="34" />
      <source>Work handed to you by file lands here</source>
      <translation>别人用文件交给你的工作在这里落地</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="166" />
      <source>Write an answer that meets the text above. Enter saves it; Shift+Enter starts a new line.</source>
      <translation>写一个满足上面要求的回答。按 Enter 保存；Shift+Enter 换行。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/welcome.py" line="20" />
      <source>Write down what you are doing: the goal, what is true and where, the questions you need answered, the checks the next person does first, and the files. Then send it as a handoff: a file, a chat message or an email.</source>
      <translation>写下你在做的事：目标、什么是真的以及在哪里成立、需要回答的问题、下一个人先做的检查，以及文件。然后把它作为交接包发出：一个文件、一条聊天消息或一封邮件。</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="191" />
      <source>Writing the chat message…</source>
      <translation>正在撰写聊天消息…</translation>
    </message>
    <message>
      <location filename="../../ui/passport_facts.py" line="64" />
      <source>You checked this yourself, on this machine: it becomes a fact verified here, by you, with a history entry. Restore ✓ instead trusts the sender's word.</source>
      <translation>你亲自在本机检查过：它会成为一个由你在这里验证的事实，并记入历史。“恢复 ✓”则是相信发送方的说法。</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="475" />
      <source>You did this check yourself, on this machine. It is recorded as a fact verified here, by you, with a history entry.</source>
      <translation>你亲自在本机做了这项检查。它会记录为一个由你在这里验证的事实，并记入历史。</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="174" />
      <source>You took this on: it is {state}.</source>
      <translation>你已接手：现在是“{state}”。</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="128" />
      <source>You typed this and it is kept as a draft. Save it to answer the ask.</source>
      <translation>这是你输入的内容，已保存为草稿。保存后才算回答了这个提问。</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="70" />
      <source>Your answers went home in a receipt; {sender} merges them. Nothing more is needed here unless they ask again.</source>
      <translation>你的回答已经用回执送回；由 {sender} 合并。除非对方再次提问，这里不需要再做什么。</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="45" />
      <source>Your desk is empty. The sample packs show a handoff with sealed facts and required checks, a Chinese-language handoff, and a receipt.</source>
      <translation>你的工作台是空的。示例包展示了一个带封存事实和必需检查的交接包、一个中文交接包，以及一份回执。</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="231" />
      <source>Your mail client opened with {name} attached.</source>
      <translation>邮件客户端已打开，并附上了 {name}。</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="134" />
      <source>Your mail program opened a new email with {file} attached.</source>
      <translation>你的邮件程序已新建一封邮件，附件是 {file}。</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="110" />
      <location filename="../../ui/window/welcome_page.py" line="91" />
      <source>Your name</source>
      <translation>你的名字</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="94" />
      <source>Your note: {note}</source>
      <translation>你的留言：{note}</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="480" />
      <source>Your passport {id} holds this fact; merging keeps yours.</source>
      <translation>你的护照 {id} 已有这条事实；合并时保留你的那条。</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="162" />
      <source>a .taskpack file</source>
      <translation>.taskpack 文件</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="162" />
      <source>a .taskpack.json file</source>
      <translation>.taskpack.json 文件</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="213" />
      <source>a new question for you</source>
      <translation>给你的新问题</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="142" />
      <source>a result with evidence was returned</source>
      <translation>已交回带证据的结果</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="220" />
      <source>a value in the file is larger than {limit} bytes</source>
      <translation>文件中的某个值超过 {limit} 字节</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="219" />
      <source>a value in the file is nested too deeply</source>
      <translation>文件中的某个值嵌套过深</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="108" />
      <location filename="../../ui/journey.py" line="105" />
      <source>an earlier desk</source>
      <translation>更早的工作台</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="148" />
      <source>an unknown time</source>
      <translation>未知时间</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="25" />
      <location filename="../../ui/pack_items.py" line="47" />
      <source>an unnamed machine</source>
      <translation>一台未命名的机器</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="56" />
      <location filename="../../ui/history_text.py" line="189" />
      <location filename="../../ui/history_text.py" line="208" />
      <source>answered</source>
      <translation>已回答</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="125" />
      <source>answered by the receipt</source>
      <translation>由回执回答</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="215" />
      <source>answered here already</source>
      <translation>这里已经回答过</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="144" />
      <source>answers came home</source>
      <translation>答复已送回</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="143" />
      <source>answers merged {when}</source>
      <translation>{when} 合并答复</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="211" />
      <source>answers your question</source>
      <translation>回答了你的提问</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="99" />
      <source>appears twice</source>
      <translation>出现了两次</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="285" />
      <source>artifact {n}</source>
      <translation>第 {n} 个产出</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="169" />
      <source>as an A2A reply</source>
      <translation>作为 A2A 回复</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="84" />
      <location filename="../../ui/history_text.py" line="187" />
      <source>ask</source>
      <translation>提问</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="36" />
      <source>ask added</source>
      <translation>添加了提问</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="33" />
      <source>ask answered</source>
      <translation>回答了提问</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="283" />
      <source>ask {n}</source>
      <translation>第 {n} 个提问</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="110" />
      <source>attachment</source>
      <translation>附件</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="202" />
      <source>bag-info.txt says the payload is {declared} (bytes.files) but it is {real}</source>
      <translation>bag-info.txt 说内容是 {declared}（字节数.文件数），实际是 {real}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="164" />
      <source>bagit.txt declares BagIt version {version}; 1.0 is expected</source>
      <translation>bagit.txt 声明的 BagIt 版本是 {version}；应为 1.0</translation>
    </message>
    <message>
      <location filename="../../ui/passport_view.py" line="372" />
      <location filename="../../ui/review_view.py" line="448" />
      <source>because {why}</source>
      <translation>因为 {why}</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="191" />
      <source>by</source>
      <translation>由</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="168" />
      <source>by an AI agent over MCP</source>
      <translation>由 AI 助手经 MCP</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="117" />
      <source>cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="57" />
      <source>cancelled over A2A by the one who sent it</source>
      <translation>发送方通过 A2A 取消了它</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="282" />
      <source>cannot be opened</source>
      <translation>无法打开</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="60" />
      <source>carried</source>
      <translation>随行有效</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="147" />
      <source>changes were asked for</source>
      <translation>要求修改</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="190" />
      <source>check</source>
      <translation>检查</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="43" />
      <source>checked here</source>
      <translation>已在本机检查</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="144" />
      <source>checked work waits for sign-off</source>
      <translation>核验过的工作等待签字</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="41" />
      <source>checkpoint</source>
      <translation>检查点</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="186" />
      <source>claim</source>
      <translation>陈述</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="100" />
      <source>collides with {other} on disks that ignore case</source>
      <translation>在不区分大小写的磁盘上与 {other} 冲突</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="90" />
      <source>contains a backslash (a Windows path separator)</source>
      <translation>含有反斜杠（Windows 的路径分隔符）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="95" />
      <source>contains a character Windows cannot store (&lt;&gt;:"|?*)</source>
      <translation>含有 Windows 无法保存的字符（&lt;&gt;:"|?*）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="89" />
      <source>contains a control character</source>
      <translation>含有控制字符</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="28" />
      <source>created</source>
      <translation>已创建</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="82" />
      <location filename="../../ui/history_text.py" line="42" />
      <source>decision</source>
      <translation>决定</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="280" />
      <source>decision {n}</source>
      <translation>第 {n} 项决定</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="116" />
      <source>declined</source>
      <translation>已拒绝</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="115" />
      <location filename="../../ui/pack_items.py" line="124" />
      <source>done</source>
      <translation>已完成</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="56" />
      <location filename="../../ui/history_text.py" line="209" />
      <location filename="../../ui/pack_items.py" line="150" />
      <source>dropped</source>
      <translation>已放弃</translation>
    </message>
    <message>
      <location filename="../../ui/window/welcome_page.py" line="90" />
      <source>e.g. Wei Zhang</source>
      <translation>例如：张伟</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="112" />
      <source>e.g. wei@wei-laptop, zhang</source>
      <translation>例如 wei@wei-laptop, zhang</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="44" />
      <source>email opened</source>
      <translation>已打开邮件</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="81" />
      <location filename="../../ui/history_text.py" line="185" />
      <source>fact</source>
      <translation>事实</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="35" />
      <source>fact added</source>
      <translation>添加了事实</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="279" />
      <source>fact {n}</source>
      <translation>第 {n} 条事实</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="183" />
      <source>file</source>
      <translation>文件</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="40" />
      <source>file attached</source>
      <translation>添加了随附文件</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="268" />
      <source>for the owner</source>
      <translation>给负责人</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="266" />
      <source>for whoever receives it</source>
      <translation>给收到它的人</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="269" />
      <source>for {who}</source>
      <translation>给 {who}</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="179" />
      <source>from</source>
      <translation>从</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="167" />
      <source>from the command line</source>
      <translation>在命令行中</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="166" />
      <source>from this window</source>
      <translation>在本窗口中</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="115" />
      <source>handed on</source>
      <translation>已交出</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="115" />
      <source>handed on {when}</source>
      <translation>{when} 交出</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="179" />
      <source>handed to</source>
      <translation>交给</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="54" />
      <location filename="../../ui/history_text.py" line="123" />
      <location filename="../../ui/history_text.py" line="159" />
      <source>handoff</source>
      <translation>交接包</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="95" />
      <source>handoff arrived</source>
      <translation>收到交接包</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="60" />
      <source>handoff file written</source>
      <translation>已写出交接文件</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="137" />
      <source>handoff sent {when}</source>
      <translation>{when} 发出交接包</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="94" />
      <source>handoff you sent</source>
      <translation>你发出的交接包</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="97" />
      <source>has a part ending in a space or dot</source>
      <translation>有一段以空格或句点结尾</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="94" />
      <source>has a part longer than 255 bytes</source>
      <translation>有一段超过 255 字节</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="93" />
      <source>has an empty, “.” or “..” part</source>
      <translation>含有空的、“.” 或 “..” 路径段</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="53" />
      <location filename="../../ui/models.py" line="134" />
      <source>held for your approval</source>
      <translation>等待你批准</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="292" />
      <source>how to check it (the sender's suggestion)</source>
      <translation>检查方法（发送方的建议）</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="55" />
      <source>in ask {n}</source>
      <translation>在提问 {n} 中</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="52" />
      <source>in fact {n}</source>
      <translation>在事实 {n} 中</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="58" />
      <source>in landing check {n}</source>
      <translation>在落地检查 {n} 中</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="112" />
      <source>in progress</source>
      <translation>进行中</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="61" />
      <source>in the file {place}</source>
      <translation>在文件 {place} 中</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="60" />
      <source>in the passport’s {field}</source>
      <translation>在护照的 {field} 中</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="49" />
      <source>in your note</source>
      <translation>在你的留言中</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="387" />
      <source>in {place}</source>
      <translation>位于 {place}</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="118" />
      <source>incoming</source>
      <translation>新到的</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="96" />
      <source>is a reserved device name on Windows</source>
      <translation>是 Windows 的保留设备名</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="91" />
      <source>is an absolute path</source>
      <translation>是绝对路径</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="101" />
      <source>is both a file and a folder</source>
      <translation>既是文件又是文件夹</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="87" />
      <source>is empty</source>
      <translation>是空的</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="98" />
      <source>is not valid Unicode</source>
      <translation>不是有效的 Unicode</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="88" />
      <source>is too long</source>
      <translation>太长</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="156" />
      <source>it is not a readable zip file</source>
      <translation>它不是可读取的 zip 文件</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="54" />
      <source>it sent open questions in a handoff and waits for the answers</source>
      <translation>它在交接包里发出了未答的问题，正在等回答</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="109" />
      <source>just arrived</source>
      <translation>刚到达</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="184" />
      <source>kind</source>
      <translation>类型</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="29" />
      <source>landed</source>
      <translation>已落地</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="121" />
      <source>landed {when}</source>
      <translation>{when} 落地</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="85" />
      <source>landing check</source>
      <translation>落地检查</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="37" />
      <source>landing check added</source>
      <translation>添加了落地检查</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="282" />
      <source>landing check {n}</source>
      <translation>第 {n} 项落地检查</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="286" />
      <source>learning {n}</source>
      <translation>第 {n} 条心得</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="109" />
      <source>luggage</source>
      <translation>行李</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="192" />
      <location filename="../../ui/pack_items.py" line="30" />
      <source>machine</source>
      <translation>机器</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="340" />
      <source>machine — paths, versions, what runs here</source>
      <translation>机器 — 路径、版本、在这里能运行什么</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="121" />
      <source>made here {when}</source>
      <translation>{when} 在这里创建</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="32" />
      <source>moved</source>
      <translation>状态变更</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="104" />
      <source>needs your approval</source>
      <translation>待你批准</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="83" />
      <source>next step</source>
      <translation>下一步</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="38" />
      <source>next step added</source>
      <translation>添加了下一步</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="281" />
      <source>next step {n}</source>
      <translation>第 {n} 个下一步</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="274" />
      <source>no mail program could be started</source>
      <translation>无法启动任何邮件程序</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="267" />
      <source>no mail program is set up on this computer</source>
      <translation>这台电脑上没有设置邮件程序</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="160" />
      <source>nobody named</source>
      <translation>未写明收件人</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="36" />
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="63" />
      <source>not proven here</source>
      <translation>在这里未证实</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="126" />
      <source>not saved yet</source>
      <translation>尚未保存</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="76" />
      <source>not verified</source>
      <translation>未验证</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="107" />
      <source>on hold</source>
      <translation>暂停中</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="56" />
      <location filename="../../ui/history_text.py" line="207" />
      <location filename="../../ui/pack_items.py" line="150" />
      <source>open</source>
      <translation>未答</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="127" />
      <location filename="../../ui/step_text.py" line="19" />
      <source>optional</source>
      <translation>可选</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="30" />
      <source>organisation</source>
      <translation>组织</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="342" />
      <source>organisation — conventions inside one organisation</source>
      <translation>组织 — 一个组织内部的约定</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="34" />
      <source>packed</source>
      <translation>已打包</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="64" />
      <source>passport {id}</source>
      <translation>护照 {id}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="231" />
      <source>passport {id} has no version {version}</source>
      <translation>护照 {id} 没有第 {version} 版</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="140" />
      <source>paused for an answer</source>
      <translation>暂停，等待回答</translation>
    </message>
    <message>
      <location filename="../../ui/settings_dialog.py" line="117" />
      <source>postgresql://USER@HOST:PORT/DB (empty: this machine only)</source>
      <translation>postgresql://用户@主机:端口/数据库（留空：只用本机）</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="110" />
      <source>ready to be taken on</source>
      <translation>可以接手</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="54" />
      <location filename="../../ui/history_text.py" line="123" />
      <location filename="../../ui/history_text.py" line="159" />
      <source>receipt</source>
      <translation>回执</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="95" />
      <source>receipt arrived</source>
      <translation>收到回执</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="60" />
      <source>receipt file written</source>
      <translation>已写出回执文件</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="30" />
      <source>receipt merged</source>
      <translation>合并了回执</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="59" />
      <source>receipt sent over A2A</source>
      <translation>回执已通过 A2A 发送</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="137" />
      <source>receipt sent {when}</source>
      <translation>{when} 发出回执</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="94" />
      <source>receipt you sent</source>
      <translation>你发出的回执</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="127" />
      <location filename="../../ui/step_text.py" line="19" />
      <source>required</source>
      <translation>必需</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="113" />
      <source>result being checked</source>
      <translation>结果核验中</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="39" />
      <source>result returned</source>
      <translation>提交了结果</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="119" />
      <source>sent by you</source>
      <translation>由你发出</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="59" />
      <source>sent over A2A</source>
      <translation>已通过 A2A 发送</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="148" />
      <source>sign-off refused</source>
      <translation>拒绝签字</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="146" />
      <source>signed off</source>
      <translation>已签字</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="195" />
      <location filename="../../ui/journey.py" line="136" />
      <location filename="../../ui/pack_items.py" line="24" />
      <source>someone</source>
      <translation>某人</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="65" />
      <source>source: {source}</source>
      <translation>来源：{source}</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="59" />
      <source>source: {who}</source>
      <translation>来源：{who}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="92" />
      <source>starts with a drive letter</source>
      <translation>以盘符开头</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="188" />
      <source>status</source>
      <translation>状态</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="217" />
      <source>stays open</source>
      <translation>仍未解决</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="56" />
      <location filename="../../ui/models.py" line="150" />
      <source>taken on here by its owner, who also does the work</source>
      <translation>由负责人在这里接手，并由其本人完成</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="111" />
      <source>taken on, not started</source>
      <translation>已接手，未开始</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="397" />
      <source>team desk {where}</source>
      <translation>团队工作台 {where}</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="395" />
      <source>team desk {where} out of reach</source>
      <translation>团队工作台 {where} 无法连接</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="115" />
      <source>the .tpx file's passport</source>
      <translation>.tpx 文件里的护照</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="213" />
      <source>the JSON has a number too large to read</source>
      <translation>JSON 里有一个大得无法读取的数</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="210" />
      <source>the JSON has the key {key} twice; which one is meant is ambiguous</source>
      <translation>JSON 里键 {key} 出现了两次，无法确定指的是哪一个</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="209" />
      <source>the JSON holds NaN or an infinite number, which JSON cannot carry</source>
      <translation>JSON 里有 NaN 或无穷大，JSON 无法表示这样的数</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="298" />
      <source>the answer</source>
      <translation>回答</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="141" />
      <source>the answer came</source>
      <translation>回答已到</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="321" />
      <source>the attached file {name}, line {line}</source>
      <translation>随附文件 {name} 第 {line} 行</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="160" />
      <source>the attachment {name} has an unusable {field}</source>
      <translation>附件 {name} 的 {field} 无法使用</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="225" />
      <source>the attachment {name} holds a JSON string that cannot be read</source>
      <translation>附件 {name} 含有无法读取的 JSON 字符串</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="223" />
      <source>the attachment {name} is cut short (the file is truncated)</source>
      <translation>附件 {name} 不完整（文件被截断）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="224" />
      <source>the attachment {name} is not valid UTF-8</source>
      <translation>附件 {name} 不是有效的 UTF-8</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="228" />
      <source>the attachment {name} is not valid base64</source>
      <translation>附件 {name} 不是有效的 base64</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="294" />
      <source>the claim</source>
      <translation>陈述</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="145" />
      <source>the evidence does not hold</source>
      <translation>证据不成立</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="143" />
      <source>the evidence holds</source>
      <translation>证据成立</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="396" />
      <source>the facts it carries that your passport does not hold yet, sealed</source>
      <translation>它带来的、你的护照还没有的事实（已封存）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="159" />
      <source>the field {field} is missing or has the wrong type</source>
      <translation>字段 {field} 缺失或类型不对</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="112" />
      <source>the file</source>
      <translation>文件</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="221" />
      <source>the file ends inside an attachment's data (it is truncated)</source>
      <translation>文件在某个附件的数据中间就结束了（文件被截断）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="218" />
      <source>the file has more content after its JSON object (byte {byte})</source>
      <translation>文件在其 JSON 对象之后还有多余内容（第 {byte} 字节）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="222" />
      <source>the file has more than {limit} attachments</source>
      <translation>文件的附件超过 {limit} 个</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="217" />
      <source>the file is not valid TaskPack JSON (near byte {byte})</source>
      <translation>文件不是有效的 TaskPack 格式的 JSON（第 {byte} 字节附近）</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="266" />
      <source>the file to attach was not found</source>
      <translation>找不到要附加的文件</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="276" />
      <source>the goal</source>
      <translation>目标</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="206" />
      <source>the luggage file {name} does not match its sha256</source>
      <translation>行李文件 {name} 与它的 sha256 不符</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="205" />
      <source>the luggage file {name} is not the size it declares</source>
      <translation>行李文件 {name} 的大小与它声明的不符</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="272" />
      <source>the mail helper stopped with code {code}</source>
      <translation>邮件助手以代码 {code} 退出</translation>
    </message>
    <message>
      <location filename="../../ui/export.py" line="268" />
      <source>the mail program could not be started</source>
      <translation>邮件程序无法启动</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="200" />
      <source>the manifest lists {path}, which is outside data/</source>
      <translation>清单列出了 data/ 之外的 {path}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="189" />
      <source>the pack holds more than {limit} JSON values and keys; ask the sender to split the work into smaller packs</source>
      <translation>这个包的 JSON 值和键超过了 {limit} 个；请发送方把工作拆成几个较小的包</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="185" />
      <source>the pack holds more than {limit} bytes of JSON outside its luggage; ask the sender to move large text into luggage (a file in the pack)</source>
      <translation>随附文件之外，这个包的 JSON 超过了 {limit} 字节；请发送方把大段文字放进随附文件（包里的一个文件）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="113" />
      <source>the passport object</source>
      <translation>护照对象</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="295" />
      <source>the question</source>
      <translation>问题</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="55" />
      <source>the receipt answered every question it was waiting on</source>
      <translation>回执回答了它在等的每一个问题</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="82" />
      <source>the receiver</source>
      <translation>接收方</translation>
    </message>
    <message>
      <location filename="../../ui/next_step.py" line="57" />
      <source>the sender</source>
      <translation>发送方</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="52" />
      <location filename="../../ui/models.py" line="133" />
      <source>the sender is on your allow list</source>
      <translation>发送者在你的允许名单上</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="275" />
      <source>the sender's note</source>
      <translation>发送方的附言</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="277" />
      <source>the title</source>
      <translation>标题</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="173" />
      <source>the zip entries {name} and {other} overlap</source>
      <translation>压缩包条目 {name} 和 {other} 相互重叠</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="174" />
      <source>the zip entry {name} has a different name in its local header</source>
      <translation>压缩包条目 {name} 在本地文件头里的名字不一样</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="172" />
      <source>the zip entry {name} is a special file (device, pipe or socket)</source>
      <translation>压缩包条目 {name} 是特殊文件（设备、管道或套接字）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="171" />
      <source>the zip entry {name} is a symbolic link</source>
      <translation>压缩包条目 {name} 是符号链接</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="175" />
      <source>the zip entry {name} is damaged (its bytes do not match its checksum)</source>
      <translation>压缩包条目 {name} 已损坏（内容与校验值不符）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="170" />
      <source>the zip entry {name} is encrypted</source>
      <translation>压缩包条目 {name} 是加密的</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="178" />
      <source>the zip entry {name} is shorter than it declares (the file is truncated)</source>
      <translation>压缩包条目 {name} 比它声明的短（文件被截断了）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="167" />
      <source>the zip entry {name} is stored in a way this desk does not support</source>
      <translation>压缩包条目 {name} 的存储方式本工作台不支持</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="181" />
      <source>the zip has more than {limit} entries</source>
      <translation>这个 zip 的条目超过 {limit} 个</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="157" />
      <source>the zip has no {missing}, so it is not a TaskPack</source>
      <translation>这个 zip 里没有 {missing}，所以不是 TaskPack</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="166" />
      <source>the zip needs a feature this desk does not support</source>
      <translation>这个 zip 需要本工作台不支持的功能</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="183" />
      <source>the zip would inflate to far more than its size (a zip bomb?)</source>
      <translation>这个 zip 解压后会远远大于它本身（可能是 zip 炸弹）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="182" />
      <source>the zip's central directory is unreasonably large</source>
      <translation>这个 zip 的中央目录大得不合理</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="129" />
      <source>the {where} name {name} {problem}</source>
      <translation>{where}名称 {name} {problem}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="114" />
      <source>the “passport” value</source>
      <translation>“passport” 的值</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="229" />
      <source>there is no file or folder {path}</source>
      <translation>没有 {path} 这个文件或文件夹</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="230" />
      <source>there is no passport {id} on this desk</source>
      <translation>本工作台上没有护照 {id}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="165" />
      <source>this .tpx file is version {version}; only .tpx 0.1 can be read</source>
      <translation>这个 .tpx 文件的版本是 {version}；只能读取 .tpx 0.1</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="79" />
      <source>this desk</source>
      <translation>本工作台</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="122" />
      <source>this desk ({machine})</source>
      <translation>本工作台（{machine}）</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="180" />
      <source>to</source>
      <translation>给</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="140" />
      <source>to {who}</source>
      <translation>给 {who}</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="30" />
      <source>universal</source>
      <translation>通用</translation>
    </message>
    <message>
      <location filename="../../ui/window/passport_actions.py" line="341" />
      <source>universal — agreements, requirements</source>
      <translation>通用 — 约定、需求</translation>
    </message>
    <message>
      <location filename="../../ui/passport_facts.py" line="40" />
      <source>unknown</source>
      <translation>未知</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="71" />
      <source>unproven here</source>
      <translation>此处未证实</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="73" />
      <source>verified on {machine}; not proven on this machine</source>
      <translation>在 {machine} 上验证过；在本机未证实</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="114" />
      <source>waiting for sign-off</source>
      <translation>等待签字</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="105" />
      <source>waiting on a person</source>
      <translation>等待某人</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="106" />
      <source>waiting on an agent</source>
      <translation>等待智能体</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="297" />
      <source>what counts as an answer</source>
      <translation>什么算作回答</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="293" />
      <source>what to check</source>
      <translation>检查内容</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="284" />
      <source>what was done, item {n}</source>
      <translation>已做的事，第 {n} 项</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="105" />
      <source>where it began</source>
      <translation>起点</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="278" />
      <source>where it stands</source>
      <translation>当前进展</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="181" />
      <location filename="../../ui/history_text.py" line="182" />
      <source>why</source>
      <translation>原因</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="296" />
      <source>why it is asked</source>
      <translation>提问原因</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="149" />
      <source>withdrawn before it finished</source>
      <translation>完成前被撤回</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="139" />
      <source>work started</source>
      <translation>工作已开始</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="139" />
      <source>written {when}, not sent: no email opened</source>
      <translation>{when} 写好，未发出：邮件没有打开</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="289" />
      <source>you</source>
      <translation>你</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="135" />
      <source>you approved it</source>
      <translation>你批准了</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="138" />
      <source>you declined it</source>
      <translation>你拒绝了</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="136" />
      <source>you denied it</source>
      <translation>你否决了</translation>
    </message>
    <message>
      <location filename="../../ui/models.py" line="137" />
      <source>you took it on</source>
      <translation>你接手了</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="111" />
      <source>zip entry</source>
      <translation>压缩包条目</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="26" />
      <source>{actor} on {machine}</source>
      <translation>{machine} 上的 {actor}</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="528" />
      <source>{answers}, {open}.</source>
      <translation>{answers}，{open}。</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="119" />
      <source>{claim} — not verified</source>
      <translation>{claim} — 未核实</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="112" />
      <source>{claim} — unproven there — verified on {machine}</source>
      <translation>{claim} — 在那里未证实 — 在 {machine} 上核实过</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="117" />
      <source>{claim} — ✓ verified</source>
      <translation>{claim} — ✓ 已核实</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="332" />
      <source>{done} of {total} answered</source>
      <translation>已回答 {done} / {total}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="75" />
      <location filename="../../ui/composer/send.py" line="106" />
      <source>{head}: {check}</source>
      <translation>{head}：{check}</translation>
    </message>
    <message>
      <location filename="../../ui/window/a2a_panel.py" line="30" />
      <source>{host} is not an address of this machine. Check the host in Settings.</source>
      <translation>{host} 不是本机的地址。请在设置里检查主机。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="39" />
      <source>{ids} and {n} more</source>
      <translation>{ids}，另有 {n} 个</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="235" />
      <source>{id} is now at version {current}</source>
      <translation>{id} 现在是第 {current} 版</translation>
    </message>
    <message>
      <location filename="../../ui/review_view.py" line="235" />
      <source>{kind} at {place}</source>
      <translation>{place} 处的{kind}</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="171" />
      <source>{kind} for {to} written to {file} ({encoding}, {via})</source>
      <translation>给 {to} 的{kind}已写入 {file}（{encoding}，{via}）</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="124" />
      <source>{kind} written to {file}</source>
      <translation>{kind}已写入 {file}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="69" />
      <source>{kind} {place}: remove it before sending (treat it as leaked).</source>
      <translation>{kind} {place}：发出前删除它（按已泄露处理）。</translation>
    </message>
    <message>
      <location filename="../../ui/window/drop_paste.py" line="44" />
      <source>{names} are not TaskPack files (those end in .taskpack or .taskpack.json); nothing was opened from them.</source>
      <translation>{names} 不是 TaskPack 文件（TaskPack 文件以 .taskpack 或 .taskpack.json 结尾）；没有打开其中任何一个。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="232" />
      <source>{name} became a symbolic link after it was chosen; it is not packed</source>
      <translation>{name} 在选定之后变成了符号链接；没有打包它</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="254" />
      <source>{name} cannot be opened: {why}</source>
      <translation>无法打开 {name}：{why}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="208" />
      <source>{name} changed size while it was being packed</source>
      <translation>{name} 在打包过程中大小发生了变化</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="207" />
      <source>{name} changed while it was being read</source>
      <translation>{name} 在读取过程中发生了变化</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="482" />
      <source>{name} is a folder: folders are not attached. Open it and choose the files inside.</source>
      <translation>{name} 是文件夹：文件夹不会被附加。打开它，选择里面的文件。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="153" />
      <source>{name} is empty</source>
      <translation>{name} 是空文件</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="154" />
      <source>{name} is neither a .taskpack (zip) nor a .taskpack.json file</source>
      <translation>{name} 既不是 .taskpack（zip）也不是 .taskpack.json 文件</translation>
    </message>
    <message>
      <location filename="../../ui/composer/composer.py" line="509" />
      <source>{name} is no longer attached.</source>
      <translation>{name} 不再随附。</translation>
    </message>
    <message>
      <location filename="../../ui/window/drop_paste.py" line="40" />
      <source>{name} is not a TaskPack file (those end in .taskpack or .taskpack.json); nothing was opened.</source>
      <translation>{name} 不是 TaskPack 文件（TaskPack 文件以 .taskpack 或 .taskpack.json 结尾）；没有打开任何内容。</translation>
    </message>
    <message>
      <location filename="../../ui/window/watching.py" line="168" />
      <source>{name} is not a readable pack: {why}</source>
      <translation>{name} 不是可读的包：{why}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="155" />
      <source>{name} is not a regular file</source>
      <translation>{name} 不是普通文件</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="213" />
      <source>{name}: {value}</source>
      <translation>{name}：{value}</translation>
    </message>
    <message>
      <location filename="../../ui/main_window.py" line="389" />
      <source>{passports}, {incoming}</source>
      <translation>{passports}，{incoming}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="201" />
      <source>{path} does not match its digest in {what}</source>
      <translation>{path} 与 {what} 里记录的摘要不符</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="197" />
      <source>{path} is in the bag but not in its manifest (nobody vouched for it)</source>
      <translation>{path} 在包里，却不在清单中（没有人为它担保）</translation>
    </message>
    <message>
      <location filename="../../ui/window/incoming.py" line="174" />
      <source>{path} is not a file.</source>
      <translation>{path} 不是文件。</translation>
    </message>
    <message>
      <location filename="../../ui/history_view.py" line="75" />
      <location filename="../../ui/history_view.py" line="70" />
      <source>{person} on {machine}</source>
      <translation>{person}（{machine}）</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="55" />
      <source>{scope} fact — keeps its ✓ across machines</source>
      <translation>{scope}事实 — 跨机器保留 ✓</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="78" />
      <source>{scope} fact, never verified</source>
      <translation>{scope}事实，从未验证</translation>
    </message>
    <message>
      <location filename="../../ui/widgets.py" line="211" />
      <source>{size}, shown as written (hidden characters as \uXXXX). It is the sender's text: nothing in it is run.</source>
      <translation>{size}，按原文显示（隐藏字符显示为 \uXXXX）。这是发送方的文字：其中的任何内容都不会被运行。</translation>
    </message>
    <message>
      <location filename="../../ui/window/watching.py" line="144" />
      <source>{title} — from {sender}. It is under Incoming; nothing lands without you.</source>
      <translation>{title} — 来自 {sender}。它在“新到的”下面；没有你的同意，什么都不会落地。</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="291" />
      <source>{what} ({detail})</source>
      <translation>{what}（{detail}）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="184" />
      <source>{what} is larger than the {limit} bytes allowed</source>
      <translation>{what} 超过了允许的 {limit} 字节</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="193" />
      <source>{what} is nested too deeply</source>
      <translation>{what} 嵌套太深</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="194" />
      <source>{what} is not a list of “&lt;sha256&gt;  &lt;path&gt;” lines</source>
      <translation>{what} 不是由 “&lt;sha256&gt;  &lt;路径&gt;” 组成的行</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="215" />
      <source>{what} is not valid JSON (line {line}, column {column})</source>
      <translation>{what} 不是有效的 JSON（第 {line} 行第 {column} 列）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="216" />
      <source>{what} is not valid UTF-8 (byte {byte})</source>
      <translation>{what} 不是有效的 UTF-8（第 {byte} 字节）</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="195" />
      <source>{what} lists {path} twice</source>
      <translation>{what} 把 {path} 列了两次</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="196" />
      <source>{what} lists {path}, which is missing from the bag</source>
      <translation>{what} 列出了 {path}，但包里没有它</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="214" />
      <source>{what} starts with a UTF-8 byte-order mark</source>
      <translation>{what} 以 UTF-8 字节顺序标记（BOM）开头</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="72" />
      <source>{what} — answer: {accept}</source>
      <translation>{what} — 回答：{accept}</translation>
    </message>
    <message>
      <location filename="../../ui/composer/send.py" line="123" />
      <source>{what} — what counts as an answer: {accept}</source>
      <translation>{what} — 什么算作回答：{accept}</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="161" />
      <source>{where} declares the version {spec}, which this desk does not know</source>
      <translation>{where} 声明的版本是 {spec}，本工作台不认识</translation>
    </message>
    <message>
      <location filename="../../ui/error_text.py" line="158" />
      <source>{where} is not a JSON object</source>
      <translation>{where} 不是 JSON 对象</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="318" />
      <source>{where}, {part}</source>
      <translation>{where}，{part}</translation>
    </message>
    <message>
      <location filename="../../ui/journey.py" line="125" />
      <source>{who}, on this team desk</source>
      <translation>{who}（在这个团队工作台上）</translation>
    </message>
    <message>
      <location filename="../../ui/asks_form.py" line="154" />
      <source>⚠ This accept is too short or vague to judge an answer against: say what would count (a number and its unit, yes or no with the reason, a date …).</source>
      <translation>⚠ 这个验收标准太短或太含糊，无法据此判定答案：请说明什么才算答案（一个数字及其单位、是或否并附理由、一个日期……）。</translation>
    </message>
    <message>
      <location filename="../../ui/pack_items.py" line="50" />
      <source>✓ proven here ({machine})</source>
      <translation>✓ 已在本机证实（{machine}）</translation>
    </message>
    <message>
      <location filename="../../ui/history_text.py" line="31" />
      <source>✓ restored</source>
      <translation>✓ 已恢复</translation>
    </message>
    <message>
      <location filename="../../ui/composer/item_lines.py" line="63" />
      <source>✓ verified here</source>
      <translation>✓ 在这里核实过</translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/review_view.py" line="529" />
      <source>%n answer comes home</source>
      <translation>
        <numerusform>%n 个回答回来了</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/asks_form.py" line="433" />
      <source>%n answer is not saved yet.</source>
      <translation>
        <numerusform>%n 个回答尚未保存。</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/pack_items.py" line="392" />
      <source>%n answers</source>
      <translation>
        <numerusform>%n 个回答</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/models.py" line="294" />
      <source>%n answers you typed wait here, not saved yet</source>
      <translation>
        <numerusform>这里有 %n 个你输入但尚未保存的回答</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/review_view.py" line="530" />
      <source>%n ask stays open</source>
      <translation>
        <numerusform>%n 个提问仍未解决</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/pack_items.py" line="398" />
      <source>%n attached files</source>
      <translation>
        <numerusform>%n 个附件</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/words.py" line="46" />
      <source>%n characters</source>
      <translation>
        <numerusform>%n 个字符</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/window/watching.py" line="120" />
      <source>%n folders checked every {seconds} s (no change events)</source>
      <translation>
        <numerusform>%n 个文件夹每 {seconds} 秒检查一次（收不到变更通知）</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/main_window.py" line="390" />
      <source>%n incoming</source>
      <translation>
        <numerusform>%n 个新到</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/journey.py" line="106" />
      <source>%n more desks</source>
      <translation>
        <numerusform>还有 %n 个工作台</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/pack_items.py" line="394" />
      <source>%n new questions, kept as open asks</source>
      <translation>
        <numerusform>%n 个新问题，作为未答提问保留</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/review_view.py" line="398" />
      <source>%n of {total} facts is not proven here: a ✓ does not survive a machine boundary.</source>
      <translation>
        <numerusform>{total} 个事实中有 %n 个在这里未证实：✓ 跨不过机器边界。</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/main_window.py" line="390" />
      <source>%n passports</source>
      <translation>
        <numerusform>%n 本护照</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/export.py" line="91" />
      <source>%n questions are still unanswered. The receipt will say so, and they stay open here: answer them later and send another receipt.</source>
      <translation>
        <numerusform>还有 %n 个问题没有答复。回执会如实说明，这些问题在这里仍然待答：以后答完再发一份回执。</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/window/incoming.py" line="311" />
      <source>%n required checks are first in its Overview.</source>
      <translation>
        <numerusform>%n 项必做检查排在它的概览最前面。</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/error_text.py" line="73" />
      <source>(and %n more)</source>
      <translation>
        <numerusform>（另有 %n 项）</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/passport_view.py" line="181" />
      <source>Asks (%n open)</source>
      <translation>
        <numerusform>提问（%n 个未解决）</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/review_view.py" line="492" />
      <source>Attached files (%n, {size})</source>
      <translation>
        <numerusform>随附文件（%n 个，{size}）</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/next_step.py" line="77" />
      <source>It waits for you: take it on (approve, accept and start in one go), then answer its %n open questions.</source>
      <translation>
        <numerusform>它在等你：接手它（一次完成批准、接受和开始），然后回答它的 %n 个未答问题。</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/next_step.py" line="97" />
      <source>Next: answer the %n open questions in the Asks tab, then send the answers home as a receipt.</source>
      <translation>
        <numerusform>下一步：在“提问”标签页回答 %n 个未答问题，然后用回执把回答送回去。</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/asks_form.py" line="439" />
      <source>Save all answers (%n)</source>
      <translation>
        <numerusform>保存全部回答（%n）</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/window/passport_actions.py" line="317" />
      <source>Saved %n answers. Export a receipt to send the answers home.</source>
      <translation>
        <numerusform>已保存 %n 个回答。导出回执把回答送回去。</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/next_step.py" line="61" />
      <source>Your receipt went home with %n questions still unanswered: answer them in the Asks tab, then send another receipt.</source>
      <translation>
        <numerusform>你的回执已送回，但还有 %n 个问题没有答复：在“提问”标签页回答它们，然后再发一份回执。</numerusform>
      </translation>
    </message>
    <message numerus="yes">
      <location filename="../../ui/window/watching.py" line="118" />
      <source>watching %n folders</source>
      <translation>
        <numerusform>正在监视 %n 个文件夹</numerusform>
      </translation>
    </message>
    <message>
      <source>Answered by {who} at {when}</source>
      <translation type="vanished">{who} 于 {when} 回答</translation>
    </message>
    <message>
      <source>Asks ({n} open)</source>
      <translation type="vanished">提问（{n} 个未答）</translation>
    </message>
    <message>
      <source>Asks it answers: {asks}</source>
      <translation type="vanished">它回答的提问：{asks}</translation>
    </message>
    <message>
      <source>Conformance not judged yet</source>
      <translation type="vanished">尚未判定一致性</translation>
    </message>
    <message>
      <source>Conformant: the file passes checks C0–C10 as written</source>
      <translation type="vanished">一致：文件按原样通过 C0–C10 检查</translation>
    </message>
    <message>
      <source>Copied the file {name} (too large for a chat message; paste it as a file).</source>
      <translation type="vanished">已复制文件 {name}（太大，不适合作为聊天消息；请作为文件粘贴）。</translation>
    </message>
    <message>
      <source>Copied: the text and the file {name} are on the clipboard. Paste into your chat.</source>
      <translation type="vanished">已复制：文本和文件 {name} 都在剪贴板上。粘贴到聊天里即可。</translation>
    </message>
    <message>
      <source>File</source>
      <translation type="vanished">文件</translation>
    </message>
    <message>
      <source>From {sender}, packed {when} ({encoding})</source>
      <translation type="vanished">来自 {sender}，打包于 {when}（{encoding}）</translation>
    </message>
    <message>
      <source>It was proven on this machine, in a pack this desk wrote.</source>
      <translation type="vanished">它是在本机证实的，而且装在本工作台写出的包里。</translation>
    </message>
    <message>
      <source>Judge the file</source>
      <translation type="vanished">判定这个文件</translation>
    </message>
    <message>
      <source>Judged against</source>
      <translation type="vanished">判定标准</translation>
    </message>
    <message>
      <source>Judging {name}…</source>
      <translation type="vanished">正在判定 {name}…</translation>
    </message>
    <message>
      <source>Lineage: {chain}</source>
      <translation type="vanished">传承：{chain}</translation>
    </message>
    <message>
      <source>Luggage</source>
      <translation type="vanished">随附文件</translation>
    </message>
    <message>
      <source>Luggage ({n} files, {size})</source>
      <translation type="vanished">随附文件（{n} 个，{size}）</translation>
    </message>
    <message>
      <source>Merging writes the answers only; it never changes the goal, the current state or the next steps.</source>
      <translation type="vanished">合并只写入答案；绝不改动目标、当前状态或下一步。</translation>
    </message>
    <message>
      <source>Move to {state}: {why}</source>
      <translation type="vanished">转到 {state}：{why}</translation>
    </message>
    <message>
      <source>No luggage.</source>
      <translation type="vanished">没有随附文件。</translation>
    </message>
    <message>
      <source>No mail client could be opened. The file is at {path}.</source>
      <translation type="vanished">无法打开邮件客户端。文件在 {path}。</translation>
    </message>
    <message>
      <source>Open the &amp;sample packs</source>
      <translation type="vanished">打开示例包(&amp;S)</translation>
    </message>
    <message>
      <source>Required checks go before the sender's next steps. How to do them is the sender's suggestion, shown as written and never run by this app.</source>
      <translation type="vanished">必需的检查排在发送方的下一步之前。怎么做是发送方的建议，按原文显示，本应用绝不运行。</translation>
    </message>
    <message>
      <source>Save luggage</source>
      <translation type="vanished">保存随附文件</translation>
    </message>
    <message>
      <source>Senders routed without approval</source>
      <translation type="vanished">无需批准即可分派的发送方</translation>
    </message>
    <message>
      <source>Sent handoff</source>
      <translation type="vanished">已发出的交接</translation>
    </message>
    <message>
      <source>Sent receipt</source>
      <translation type="vanished">已发出的回执</translation>
    </message>
    <message>
      <source>Settings saved. A new machine name or your name applies the next time the desk starts.</source>
      <translation type="vanished">设置已保存。新的机器名或你的名字会在下次启动工作台时生效。</translation>
    </message>
    <message>
      <source>The luggage is large ({size}); judging reads all of it.</source>
      <translation type="vanished">随附文件很大（{size}）；判定需要全部读取。</translation>
    </message>
    <message>
      <source>This pack was not written on this desk, so its word that the fact was proven here cannot be trusted; check it again.</source>
      <translation type="vanished">这个包不是本工作台写出的，所以它说这条事实已在此证实的话不可信；请再检查一遍。</translation>
    </message>
    <message>
      <source>Write an answer that meets the text above.</source>
      <translation type="vanished">写一个满足上面标准的回答。</translation>
    </message>
    <message>
      <source>accepted</source>
      <translation type="vanished">已接受</translation>
    </message>
    <message>
      <source>answers {id}</source>
      <translation type="vanished">回答 {id}</translation>
    </message>
    <message>
      <source>approval</source>
      <translation type="vanished">待签收</translation>
    </message>
    <message>
      <source>completed</source>
      <translation type="vanished">已完成</translation>
    </message>
    <message>
      <source>luggage added</source>
      <translation type="vanished">添加了随附文件</translation>
    </message>
    <message>
      <source>rejected</source>
      <translation type="vanished">已拒绝</translation>
    </message>
    <message>
      <source>requested</source>
      <translation type="vanished">已请求</translation>
    </message>
    <message>
      <source>routed</source>
      <translation type="vanished">已分派</translation>
    </message>
    <message>
      <source>sent {kind} to {to}: {file} ({encoding}, via {via})</source>
      <translation type="vanished">已发送{kind}给 {to}：{file}（{encoding}，经由 {via}）</translation>
    </message>
    <message>
      <source>verifying</source>
      <translation type="vanished">核验中</translation>
    </message>
    <message>
      <source>waiting</source>
      <translation type="vanished">等待中</translation>
    </message>
    <message>
      <source>watching {n} folders</source>
      <translation type="vanished">正在监视 {n} 个文件夹</translation>
    </message>
    <message>
      <source>working</source>
      <translation type="vanished">进行中</translation>
    </message>
    <message>
      <source>{n} of {total} facts are unproven here: a ✓ does not survive a machine boundary.</source>
      <translation type="vanished">{total} 个事实中有 {n} 个在此处未证实：✓ 跨不过机器边界。</translation>
    </message>
    <message>
      <source>{n} passports, {m} incoming</source>
      <translation type="vanished">{n} 本护照，{m} 个新到的</translation>
    </message>
    <message>
      <source>{n} required checks are first in its Overview.</source>
      <translation type="vanished">{n} 项必需检查排在它的概览最前面。</translation>
    </message>
  </context>
</TS>
