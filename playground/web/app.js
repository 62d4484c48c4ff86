// The playground's chat page: act as a simulated person, watch the bot answer live.
// Plain JS, no build step. It talks to the emulator's /pg/ API and follows /pg/ws.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = {
  bot: null,
  users: [],
  user: null,        // the person acting now (id)
  chats: [],         // chats of that person
  chat: null,        // the open chat (ref)
  inlineQuery: null, // id of the inline query whose results we wait for
  commands: [],
  replyTo: null,     // the message the next one answers ({message_id, name, text}), as in Telegram
};

// ------------------------------------------------------------------ HTTP
async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

async function act(fn) {
  try { return await fn(); } catch (e) { showAlert(e.message); return null; }
}

// ------------------------------------------------------------------ toast and modal
let toastTimer = null;
function showToast(text) {
  const t = $("#toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 2500);
}

function modal(build, buttons) {
  return new Promise((resolve) => {
    const body = $("#modal-body");
    const row = $("#modal-buttons");
    body.replaceChildren();
    row.replaceChildren();
    const read = build(body) || (() => true);
    for (const [label, value, secondary] of buttons) {
      const b = document.createElement("button");
      b.textContent = label;
      if (secondary) b.className = "secondary";
      b.onclick = () => { $("#modal").hidden = true; resolve(value ? read() : null); };
      row.append(b);
    }
    $("#modal").hidden = false;
    const first = body.querySelector("input, select");
    if (first) first.focus();
  });
}

function showAlert(text) {
  return modal((body) => { body.textContent = text; }, [["OK", true]]);
}

function field(body, label, input) {
  const l = document.createElement("label");
  l.textContent = label;
  l.append(input);
  body.append(l);
  return input;
}

function textInput(value = "", placeholder = "") {
  const i = document.createElement("input");
  i.value = value;
  i.placeholder = placeholder;
  return i;
}

function select(options, value) {
  const s = document.createElement("select");
  for (const [v, label] of options) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = label;
    s.append(o);
  }
  if (value !== undefined) s.value = value;
  return s;
}

function userChecks(body, label, exclude) {
  const box = document.createElement("div");
  box.className = "checks";
  const title = document.createElement("span");
  title.textContent = label;
  box.append(title);
  const checks = [];
  for (const u of state.users.filter((x) => !exclude.includes(x.id))) {
    const l = document.createElement("label");
    const c = document.createElement("input");
    c.type = "checkbox";
    c.value = u.id;
    l.append(c, ` ${u.first_name} (@${u.username})`);
    box.append(l);
    checks.push(c);
  }
  body.append(box);
  return () => checks.filter((c) => c.checked).map((c) => Number(c.value));
}

// ------------------------------------------------------------------ people and chats
function me() { return state.users.find((u) => u.id === state.user); }
function openChat() { return state.chats.find((c) => c.ref === state.chat); }

async function loadUsers() {
  const s = await api("/pg/state");
  state.bot = s.bot;
  state.users = s.users;
  const sel = $("#user-select");
  sel.replaceChildren(...s.users.map((u) => {
    const o = document.createElement("option");
    o.value = u.id;
    o.textContent = `${u.first_name} (@${u.username}, ${u.lang})`;
    return o;
  }));
  if (!state.user && s.users.length) {
    const wanted = new URLSearchParams(location.search).get("user");
    const found = s.users.find((u) => u.username === wanted);
    state.user = (found || s.users[0]).id;
  }
  if (state.user) sel.value = String(state.user);
}

async function loadChats() {
  if (!state.user) { $("#chat-list").replaceChildren(); return; }
  state.chats = await api(`/pg/chats?user=${state.user}`);
  const list = $("#chat-list");
  list.replaceChildren(...state.chats.map((c) => {
    const item = document.createElement("div");
    item.className = "chat-item" + (c.ref === state.chat ? " active" : "");
    item.dataset.ref = c.ref;
    const av = document.createElement("div");
    av.className = "avatar";
    av.style.background = c.type === "private" ? "#3390ec" : c.type === "dialog" ? "#e17076" : "#7bc862";
    av.textContent = (c.title || "?").slice(0, 1).toUpperCase();
    const meta = document.createElement("div");
    meta.className = "meta";
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = c.title + (c.type === "supergroup" ? " (supergroup)" : "");
    const prev = document.createElement("div");
    prev.className = "preview";
    prev.textContent = c.last ? previewOf(c.last) : (c.type === "private" ? "Start the bot" : "");
    meta.append(name, prev);
    item.append(av, meta);
    item.onclick = () => selectChat(c.ref);
    return item;
  }));
  if (state.chat && !openChat()) { state.chat = null; renderChat(); }
}

function previewOf(m) {
  if (m.service) return m.service;
  const body = m.text || m.caption || (m.media ? `[${m.media.kind}]` : "");
  return (m.from.is_bot ? "" : `${m.from.name}: `) + body;
}

async function selectChat(ref) {
  if (ref !== state.chat) cancelReply();
  state.chat = ref;
  $("#app").className = "show-chat";
  document.querySelectorAll(".chat-item").forEach((el) => {
    el.classList.toggle("active", Number(el.dataset.ref) === ref);
  });
  closePanels();
  await renderChat();
  $("#composer-input").focus();
}

async function renderChat() {
  const chat = openChat();
  const input = $("#composer-input");
  input.disabled = $("#send").disabled = !chat;
  $("#chat-title").textContent = chat ? chat.title : "Pick a chat";
  $("#chat-status").textContent = chat ? statusOf(chat) : "";
  renderTools(chat);
  renderMenuButton(chat);
  const box = $("#messages");
  if (!chat) { box.replaceChildren(); return; }
  const msgs = await api(`/pg/chats/${chat.ref}/messages`);
  if (chat.ref !== state.chat) return;
  box.replaceChildren(...msgs.map(renderMessage));
  if (!msgs.length && chat.type === "private") {
    const hint = document.createElement("div");
    hint.className = "empty";
    const b = document.createElement("button");
    b.textContent = "Start";
    b.id = "start-bot";
    b.onclick = () => send("/start");
    hint.append(b);
    box.append(hint);
  }
  box.scrollTop = box.scrollHeight;
  state.commands = await api(`/pg/chats/${chat.ref}/commands?user=${state.user}`).catch(() => []);
}

function renderMenuButton(chat) {
  const b = $("#menu-app");
  const menu = chat && chat.menu_button;
  b.hidden = !(menu && menu.type === "web_app");
  if (!b.hidden) b.textContent = menu.text;
}

function statusOf(chat) {
  if (chat.type === "private") return chat.blocked ? "blocked" : `bot @${state.bot.username}`;
  if (chat.type === "dialog") return "private chat";
  const n = chat.members.length + (chat.bot_member ? 1 : 0);
  const privacy = chat.bot_member ? (chat.privacy ? ", bot privacy on" : ", bot sees all") : ", no bot";
  return `${n} members${privacy}`;
}

function tool(label, fn) {
  const b = document.createElement("button");
  b.textContent = label;
  b.onclick = () => act(fn);
  return b;
}

function renderTools(chat) {
  const tools = $("#chat-tools");
  tools.replaceChildren();
  if (!chat) return;
  if (chat.type === "private") {
    tools.append(tool(chat.blocked ? "Unblock" : "Block", async () => {
      await api("/pg/block", {user: state.user, blocked: !chat.blocked});
    }));
  }
  if (chat.type === "group" || chat.type === "supergroup") {
    tools.append(tool("Add people", () => addMembers(chat)));
    tools.append(tool(chat.bot_member ? "Remove bot" : "Add bot", () =>
      api(`/pg/groups/${chat.ref}/bot`, {by: state.user, remove: chat.bot_member})));
    tools.append(tool(chat.privacy ? "Privacy: on" : "Privacy: off", () =>
      api(`/pg/groups/${chat.ref}/privacy`, {on: !chat.privacy})));
    if (chat.type === "group") {
      tools.append(tool("→ Supergroup", () => api(`/pg/groups/${chat.ref}/migrate`, {by: state.user})));
    }
  }
}

async function addMembers(chat) {
  const ids = await modal((body) => userChecks(body, `Add to ${chat.title}:`, chat.members),
    [["Cancel", false, true], ["Add", true]]);
  for (const id of ids || []) {
    await api(`/pg/groups/${chat.ref}/members`, {user: id, by: state.user});
  }
}

// ------------------------------------------------------------------ messages
function renderEntities(text, entities) {
  // Entities use UTF-16 offsets, which is what JS string indices are.
  const frag = document.createDocumentFragment();
  const sorted = [...(entities || [])].sort((a, b) => a.offset - b.offset || b.length - a.length);
  let pos = 0;
  function build(until, list) {
    const out = document.createDocumentFragment();
    while (pos < until) {
      const e = list.find((x) => x.offset >= pos && x.offset < until);
      const stop = e ? e.offset : until;
      if (stop > pos) out.append(text.slice(pos, stop));
      pos = stop;
      if (!e) break;
      list.splice(list.indexOf(e), 1);
      const end = Math.min(e.offset + e.length, until);
      const el = entityElement(e, text.slice(e.offset, end));
      el.append(build(end, list));
      pos = end;
      out.append(el);
    }
    return out;
  }
  frag.append(build(text.length, sorted));
  return frag;
}

function entityElement(e, content) {
  const tags = {bold: "b", italic: "i", underline: "u", strikethrough: "s", code: "code",
    pre: "pre", blockquote: "blockquote", expandable_blockquote: "blockquote"};
  if (tags[e.type]) return document.createElement(tags[e.type]);
  if (e.type === "spoiler") {
    const s = document.createElement("span");
    s.className = "spoiler";
    s.onclick = () => s.classList.add("open");
    return s;
  }
  if (e.type === "bot_command") {
    const a = document.createElement("a");
    a.className = "cmd";
    a.onclick = () => send(content);
    return a;
  }
  if (e.type === "url" || e.type === "text_link") {
    const a = document.createElement("a");
    a.className = "link";
    const url = e.url || content;
    a.title = url;
    a.onclick = () => followLink(url);
    return a;
  }
  return document.createElement("span");
}

function renderMessage(m) {
  const wrap = document.createElement("div");
  wrap.dataset.id = m.message_id;
  const mine = !m.from.is_bot && m.from.id === state.user;
  wrap.className = "msg" + (mine ? " mine" : "") + (m.service ? " service" : "") +
    (m.from.is_bot ? " from-bot" : "") + (m.media && m.media.kind !== "document" ? " has-photo" : "");
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  if (m.service) {
    bubble.textContent = m.service;
    wrap.append(bubble);
    return wrap;
  }
  const chat = openChat();
  if (!mine && chat && chat.type !== "private") {
    const s = document.createElement("div");
    s.className = "sender";
    s.textContent = m.from.name;
    bubble.append(s);
  }
  if (m.reply_preview) bubble.append(replyQuote(m.reply_preview));
  if (m.via_bot) {
    const v = document.createElement("div");
    v.className = "via";
    v.textContent = `via @${m.via_bot}`;
    bubble.append(v);
  }
  if (m.media) {
    if (m.media.kind === "photo" || m.media.kind === "animation") {
      const img = document.createElement("img");
      img.className = "photo";
      img.src = m.media.url;
      img.width = m.media.width;
      img.height = m.media.height;
      img.alt = m.caption || "picture";
      bubble.append(img);
    } else {
      const a = document.createElement("a");
      a.className = "doc";
      a.href = m.media.url;
      a.download = m.media.file_name || "file";
      a.textContent = `📄 ${m.media.file_name || "file"}`;
      bubble.append(a);
    }
  }
  const body = m.text ?? m.caption;
  if (body) {
    const t = document.createElement("div");
    t.className = "text";
    t.append(renderEntities(body, m.text !== null ? m.entities : m.caption_entities));
    bubble.append(t);
  }
  const stamp = document.createElement("div");
  stamp.className = "stamp";
  const d = new Date(m.date * 1000);
  stamp.textContent = (m.edited ? "edited " : "") + d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
  bubble.append(stamp);
  wrap.append(bubble);
  if (m.buttons && m.buttons.length) {
    const kb = document.createElement("div");
    kb.className = "kb";
    m.buttons.forEach((row, r) => {
      const rowEl = document.createElement("div");
      rowEl.className = "kb-row";
      row.forEach((b, c) => {
        const btn = document.createElement("button");
        btn.textContent = b.text + (b.url ? " ↗" : b.web_app ? " ⧉" : "");
        btn.title = b.text;
        btn.onclick = () => pressButton(m, r, c, b, btn);
        rowEl.append(btn);
      });
      kb.append(rowEl);
    });
    wrap.append(kb);
  }
  bindReplies(m, wrap);
  return wrap;
}

// A reply's quote: who wrote the message it answers and the start of it; a tap shows it.
function replyQuote(p) {
  const q = document.createElement("div");
  q.className = "reply-quote";
  q.dataset.replyTo = p.message_id;
  if (p.deleted) {
    q.append(Object.assign(document.createElement("div"), {className: "quote-text", textContent: "Deleted message"}));
    return q;
  }
  if (p.thumb) q.append(Object.assign(document.createElement("img"), {src: p.thumb, alt: ""}));
  const words = document.createElement("div");
  words.className = "quote-words";
  words.append(Object.assign(document.createElement("div"), {className: "quote-name", textContent: p.name}));
  words.append(Object.assign(document.createElement("div"), {className: "quote-text", textContent: p.text}));
  q.append(words);
  q.onclick = (ev) => { ev.stopPropagation(); showMessage(p.message_id); };
  return q;
}

function showMessage(id) {
  const el = $(`#messages .msg[data-id="${id}"]`);
  if (!el) return;
  el.scrollIntoView({block: "center"});
  el.classList.add("highlight");
  setTimeout(() => el.classList.remove("highlight"), 1500);
}

// Replying: a tap on a message opens its menu (Reply); a double click replies at once. The
// bar above the composer shows what the next message answers until it is sent or cancelled.
function startReply(m) {
  const body = m.text ?? m.caption ?? (m.media ? (m.media.kind === "photo" ? "Photo" : m.media.kind) : "");
  state.replyTo = {message_id: m.message_id, name: m.from.name, text: body.replace(/\s+/g, " ")};
  renderReplyBar();
  $("#composer-input").focus();
}

function cancelReply() {
  state.replyTo = null;
  renderReplyBar();
}

function renderReplyBar() {
  const bar = $("#reply-bar");
  const r = state.replyTo;
  bar.hidden = !r;
  if (!r) return;
  $("#reply-name").textContent = `Reply to ${r.name}`;
  $("#reply-text").textContent = r.text;
}

function messageMenu(m, wrap, ev) {
  const menu = $("#msg-menu");
  menu.replaceChildren();
  const item = (label, fn) => {
    const b = document.createElement("button");
    b.textContent = label;
    b.onclick = () => { menu.hidden = true; fn(); };
    menu.append(b);
  };
  item("↩ Reply", () => startReply(m));
  const body = m.text ?? m.caption;
  if (body && navigator.clipboard) item("Copy text", () => navigator.clipboard.writeText(body).catch(() => {}));
  menu.hidden = false;
  const box = wrap.getBoundingClientRect();
  const x = Math.min(ev.clientX, window.innerWidth - menu.offsetWidth - 8);
  const y = Math.min(Math.max(ev.clientY, box.top), window.innerHeight - menu.offsetHeight - 8);
  menu.style.left = `${Math.max(8, x)}px`;
  menu.style.top = `${Math.max(8, y)}px`;
}

function bindReplies(m, wrap) {
  if (m.service) return;
  const bubble = wrap.querySelector(".bubble");
  const interactive = (t) => t.closest("a, button, .spoiler, .reply-quote");
  bubble.addEventListener("click", (ev) => {
    if (interactive(ev.target)) return;
    ev.stopPropagation();
    messageMenu(m, wrap, ev);
  });
  bubble.addEventListener("dblclick", (ev) => {
    if (interactive(ev.target)) return;
    $("#msg-menu").hidden = true;
    startReply(m);
  });
}

function upsertMessage(m) {
  if (m.chat !== state.chat) return;
  const box = $("#messages");
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  const el = renderMessage(m);
  const old = box.querySelector(`.msg[data-id="${m.message_id}"]`);
  if (old) {
    old.replaceWith(el);
  } else {
    box.querySelector(".empty")?.remove();
    box.append(el);
  }
  if (nearBottom || !old) box.scrollTop = box.scrollHeight;
}

async function pressButton(m, row, col, b, btn) {
  if (b.web_app) { await openMiniApp({chat: m.chat, message_id: m.message_id, row, col}); return; }
  if (b.url) { followLink(b.url); return; }
  if (b.switch_inline_query !== undefined || b.switch_inline_query_current_chat !== undefined) {
    const q = b.switch_inline_query ?? b.switch_inline_query_current_chat;
    const input = $("#composer-input");
    input.value = `@${state.bot.username} ${q}`;
    input.focus();
    onType();
    return;
  }
  btn.classList.add("pending");
  await act(() => api("/pg/press", {user: state.user, chat: m.chat, message_id: m.message_id, row, col}));
  setTimeout(() => btn.classList.remove("pending"), 600);
}

// ------------------------------------------------------------------ typing, commands, inline mode
async function send(text) {
  const chat = openChat();
  if (!chat || !text.trim()) return;
  const reply = state.replyTo;
  const body = {user: state.user, chat: chat.ref, text};
  if (reply) body.reply_to = reply.message_id;
  cancelReply();
  await act(() => api("/pg/send", body));
}

function closePanels() {
  $("#msg-menu").hidden = true;
  $("#inline-results").hidden = true;
  $("#command-menu").hidden = true;
  state.inlineQuery = null;
}

let inlineTimer = null;
let inlineTicket = 0;
function onType() {
  const value = $("#composer-input").value;
  const prefix = `@${state.bot.username}`;
  if (value.toLowerCase().startsWith(prefix.toLowerCase() + " ") || value.toLowerCase() === prefix.toLowerCase()) {
    $("#command-menu").hidden = true;
    clearTimeout(inlineTimer);
    inlineTimer = setTimeout(() => askInline(value.slice(prefix.length).trim()), 250);
    return;
  }
  state.inlineQuery = null;
  $("#inline-results").hidden = true;
  const menu = $("#command-menu");
  if (value.startsWith("/") && !value.includes(" ") && state.commands.length) {
    const shown = state.commands.filter((c) => ("/" + c.command).startsWith(value.split("@")[0]));
    menu.replaceChildren(...shown.map((c) => {
      const p = document.createElement("div");
      p.className = "pick";
      p.innerHTML = `<div><div class="title"></div><div class="desc"></div></div>`;
      p.querySelector(".title").textContent = "/" + c.command;
      p.querySelector(".desc").textContent = c.description;
      p.onclick = () => { $("#composer-input").value = ""; menu.hidden = true; send("/" + c.command); };
      return p;
    }));
    menu.hidden = !shown.length;
  } else {
    menu.hidden = true;
  }
}

async function askInline(query) {
  const chat = openChat();
  if (!chat) return;
  const box = $("#inline-results");
  box.hidden = false;
  box.replaceChildren(Object.assign(document.createElement("div"), {className: "empty", textContent: "…"}));
  // The answer may come on the websocket before this request returns, so take it from here.
  const ticket = ++inlineTicket;
  const r = await act(() => api("/pg/inline", {user: state.user, chat: chat.ref, query, wait: 10}));
  if (!r || ticket !== inlineTicket) return;
  state.inlineQuery = r.query;
  if (r.answered) showInlineResults(r);
}

function showInlineResults(e) {
  if (e.query !== state.inlineQuery) return;
  const box = $("#inline-results");
  if (!e.results.length) {
    box.replaceChildren(Object.assign(document.createElement("div"), {className: "empty", textContent: "No results"}));
    return;
  }
  box.replaceChildren(...e.results.map((r) => {
    const p = document.createElement("div");
    p.className = "pick inline-result";
    if (r.thumbnail) {
      const img = document.createElement("img");
      img.src = r.thumbnail;
      img.alt = "";
      p.append(img);
    }
    const text = document.createElement("div");
    text.innerHTML = `<div class="title"></div><div class="desc"></div>`;
    text.querySelector(".title").textContent = r.title;
    text.querySelector(".desc").textContent = r.description;
    p.append(text);
    p.onclick = async () => {
      const query = state.inlineQuery;
      closePanels();
      $("#composer-input").value = "";
      await act(() => api("/pg/inline/choose", {user: state.user, query, result: r.id}));
    };
    return p;
  }));
}

// ------------------------------------------------------------------ links, groups, people
async function followLink(url) {
  const m = /^(?:https?:\/\/)?(?:t|telegram)\.me\/([A-Za-z0-9_]+)(\/[A-Za-z0-9_]+)?\/?(\?.*)?$/.exec(url);
  if (!m || m[1].toLowerCase() !== state.bot.username.toLowerCase()) {
    window.open(url, "_blank", "noopener");
    return;
  }
  const params = new URLSearchParams(m[3] || "");
  if (m[2] || params.has("startapp")) {  // a direct link to the bot's Mini App
    await openMiniApp({url, chat: state.chat ?? state.user});
    return;
  }
  let group = null;
  if (params.has("startgroup")) {
    const groups = state.chats.filter((c) => c.type === "group" || c.type === "supergroup");
    if (!groups.length) { showAlert("Create a group first."); return; }
    group = await modal((body) => {
      const s = field(body, `Add @${state.bot.username} to which group?`,
        select(groups.map((g) => [g.ref, g.title])));
      return () => Number(s.value);
    }, [["Cancel", false, true], ["Add bot", true]]);
    if (!group) return;
  }
  const msg = await act(() => api("/pg/link", {user: state.user, url, group}));
  if (!msg) return;
  await loadChats();  // the link may have opened a chat this page has not listed yet
  await selectChat(msg.chat);
}

async function newUser() {
  const got = await modal((body) => {
    const name = field(body, "Username", textInput("", "e.g. carol"));
    const lang = field(body, "Language", select([["ru", "Русский"], ["en", "English"]], "ru"));
    return () => ({username: name.value.trim(), lang: lang.value});
  }, [["Cancel", false, true], ["Create", true]]);
  if (!got || !got.username) return;
  const u = await act(() => api("/pg/users", got));
  if (u) { state.user = u.id; await loadUsers(); await loadChats(); }
}

async function newGroup() {
  const got = await modal((body) => {
    const title = field(body, "Group name", textInput("", "Friends"));
    const pick = userChecks(body, "Members:", [state.user]);
    const box = document.createElement("label");
    const bot = document.createElement("input");
    bot.type = "checkbox";
    bot.checked = true;
    box.append(bot, ` Add @${state.bot.username}`);
    box.style.flexDirection = "row";
    body.append(box);
    return () => ({title: title.value.trim() || "Group", members: pick(), bot: bot.checked});
  }, [["Cancel", false, true], ["Create", true]]);
  if (!got) return;
  const chat = await act(() => api("/pg/groups", {...got, creator: state.user}));
  if (chat) { await loadChats(); await selectChat(chat.ref); }
}

async function newDialog() {
  const others = state.users.filter((u) => u.id !== state.user);
  if (!others.length) { showAlert("Create another person first."); return; }
  const other = await modal((body) => {
    const s = field(body, "Chat with", select(others.map((u) => [u.id, `${u.first_name} (@${u.username})`])));
    return () => Number(s.value);
  }, [["Cancel", false, true], ["Open", true]]);
  if (!other) return;
  const chat = await act(() => api("/pg/dialogs", {user: state.user, other}));
  if (chat) { await loadChats(); await selectChat(chat.ref); }
}

async function openLinkPrompt() {
  const url = await modal((body) => {
    const i = field(body, "A t.me link", textInput(`https://t.me/${state.bot.username}?start=`));
    return () => i.value.trim();
  }, [["Cancel", false, true], ["Open", true]]);
  if (url) await followLink(url);
}

// ------------------------------------------------------------------ Mini Apps
// The parent side of Telegram's web protocol: the app posts JSON strings
// {eventType, eventData} to window.parent; the panel answers the same way into the iframe.
// Everything that passes is recorded on the emulator as a "miniapp" World event.
const mini = {launch: null, theme: "light", themes: null, origin: "*", haptics: 0, main: {}};
let miniLog = Promise.resolve();

function miniRecord(event, data) {
  const session = mini.launch && mini.launch.session;
  if (!session) return;
  miniLog = miniLog.then(() => api("/pg/miniapp/events", {session, event, data: data ?? null}))
    .catch(() => {});
}

async function openMiniApp(body) {
  const launch = await act(() => api("/pg/miniapp/launch", {user: state.user, theme: mini.theme, ...body}));
  if (!launch) return;
  mini.launch = launch;
  mini.themes = launch.themes;
  mini.origin = new URL(launch.url, location.href).origin;
  mini.haptics = 0;
  $("#ma-title").textContent = launch.title;
  setMiniBack(false);
  setMiniMain({is_visible: false});
  paintMiniTheme();
  const panel = $("#miniapp");
  panel.dataset.session = launch.session;
  panel.dataset.haptics = "0";
  delete panel.dataset.appReady;
  $("#ma-frame").src = launch.url;
  panel.hidden = false;
}

function closeMiniApp() {
  if (!mini.launch) return;
  miniRecord("close");
  mini.launch = null;
  $("#ma-frame").src = "about:blank";
  $("#miniapp").hidden = true;
}

function toMiniApp(eventType, eventData) {
  const frame = $("#ma-frame").contentWindow;
  if (!mini.launch || !frame) return;
  frame.postMessage(JSON.stringify({eventType, eventData}), mini.origin);
  miniRecord(eventType, eventData);
}

function paintMiniTheme() {
  const t = mini.themes[mini.theme];
  const style = $("#miniapp").style;
  const vars = {bg: t.bg_color, text: t.text_color, header: t.header_bg_color, link: t.link_color,
    button: t.button_color, "button-text": t.button_text_color, bottom: t.bottom_bar_bg_color};
  for (const [k, v] of Object.entries(vars)) style.setProperty(`--ma-${k}`, v);
  $("#miniapp").dataset.theme = mini.theme;
  setMiniMain(mini.main);
}

function setMiniMain(p) {
  mini.main = {...mini.main, ...p};
  const m = mini.main;
  const t = mini.themes ? mini.themes[mini.theme] : {};
  const b = $("#ma-main-button");
  $("#ma-main").hidden = !m.is_visible;
  b.textContent = m.text || "Continue";
  b.style.background = m.color || t.button_color || "";
  b.style.color = m.text_color || t.button_text_color || "";
  b.disabled = m.is_active === false;
  b.classList.toggle("progress", !!m.is_progress_visible);
}

function setMiniBack(visible) {
  $("#ma-back").hidden = !visible;
  $("#ma-close").hidden = visible;  // Telegram shows Back in the close button's place
}

let hapticTimer = null;
function miniHaptic(p) {
  const panel = $("#miniapp");
  mini.haptics += 1;
  panel.dataset.haptics = String(mini.haptics);
  const phone = panel.querySelector(".ma-phone");
  phone.classList.add("haptic");
  const label = $("#ma-haptic");
  label.textContent = `📳 ${[p.type, p.impact_style || p.notification_type].filter(Boolean).join(" · ")}`;
  label.hidden = false;
  clearTimeout(hapticTimer);
  hapticTimer = setTimeout(() => { phone.classList.remove("haptic"); label.hidden = true; }, 700);
}

async function miniPopup(p) {
  // showPopup / showAlert / showConfirm: the person picks a button; popup_closed says which.
  const words = {ok: "OK", close: "Close", cancel: "Cancel"};
  const buttons = (p.buttons && p.buttons.length ? p.buttons : [{type: "close"}]).map((b) =>
    [b.text || words[b.type] || "OK", b.id ?? "", b.type === "cancel" || b.type === "close"]);
  const picked = await new Promise((resolve) => {
    modal((body) => {
      if (p.title) body.append(Object.assign(document.createElement("b"), {textContent: p.title}));
      body.append(document.createTextNode(p.message || ""));
      return null;
    }, buttons.map(([label, id, secondary]) => [label, true, secondary]));
    // modal() resolves with read() of the pressed button; learn which through its rows
    $("#modal-buttons").querySelectorAll("button").forEach((b, i) => {
      b.addEventListener("click", () => resolve(buttons[i][1]));
    });
  });
  toMiniApp("popup_closed", {button_id: picked});
}

function onMiniMessage(ev) {
  if (!mini.launch || ev.source !== $("#ma-frame").contentWindow) return;
  let msg;
  try { msg = typeof ev.data === "string" ? JSON.parse(ev.data) : ev.data; } catch { return; }
  if (!msg || typeof msg.eventType !== "string") return;
  const data = msg.eventData ?? {};
  miniRecord(msg.eventType, msg.eventData);
  const t = mini.themes[mini.theme];
  switch (msg.eventType) {
    case "web_app_ready": $("#miniapp").dataset.appReady = "1"; break;
    case "web_app_setup_main_button": setMiniMain(data); break;
    case "web_app_setup_back_button": setMiniBack(!!data.is_visible); break;
    case "web_app_trigger_haptic_feedback": miniHaptic(data); break;
    case "web_app_close": closeMiniApp(); break;
    case "web_app_request_theme": toMiniApp("theme_changed", {theme_params: t}); break;
    case "web_app_request_viewport": {
      const f = $("#ma-frame");
      toMiniApp("viewport_changed", {height: f.clientHeight, width: f.clientWidth,
        is_expanded: true, is_state_stable: true});
      break;
    }
    case "web_app_set_header_color":
      $(".ma-head").style.background = data.color || t[data.color_key] || "";
      break;
    case "web_app_set_background_color": $("#ma-frame").style.background = data.color || ""; break;
    case "web_app_open_popup": miniPopup(data); break;
    case "web_app_open_tg_link": {  // e.g. {path_full: "/bot?start=x"}: a t.me link, in the chat
      closeMiniApp();
      followLink(`https://t.me${data.path_full || ""}`);
      break;
    }
    case "web_app_open_link": if (data.url) window.open(data.url, "_blank", "noopener"); break;
    default: break;  // web_app_expand and the rest: recorded only
  }
}

function bindMiniApp() {
  window.addEventListener("message", onMiniMessage);
  $("#ma-close").onclick = closeMiniApp;
  $("#ma-back").onclick = () => toMiniApp("back_button_pressed");
  $("#ma-main-button").onclick = () => { if (mini.main.is_active !== false) toMiniApp("main_button_pressed"); };
  $("#ma-theme").onclick = () => {
    mini.theme = mini.theme === "light" ? "dark" : "light";
    paintMiniTheme();
    toMiniApp("theme_changed", {theme_params: mini.themes[mini.theme]});
  };
  $("#menu-app").onclick = () => openMiniApp({menu: true});
}

// ------------------------------------------------------------------ live events
let reloadTimer = null;
function reloadSoon() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(async () => {
    await loadUsers();
    await loadChats();
    const chat = openChat();
    if (chat) {
      $("#chat-status").textContent = statusOf(chat);
      renderTools(chat);
      renderMenuButton(chat);
    }
  }, 80);
}

let actionTimer = null;
function onEvent(e) {
  switch (e.type) {
    case "message":
    case "edit":
      upsertMessage(e.message);
      reloadSoon();
      break;
    case "delete":
      if (e.chat === state.chat) $(`#messages .msg[data-id="${e.message_id}"]`)?.remove();
      if (e.chat === state.chat && state.replyTo && state.replyTo.message_id === e.message_id) cancelReply();
      reloadSoon();
      break;
    case "popup":
      if (e.user === state.user) {
        if (e.show_alert) showAlert(e.text);
        else if (e.text) showToast(e.text);
        if (e.url) showToast(`Open: ${e.url}`);
      }
      break;
    case "inline_results":
      if (e.user === state.user) showInlineResults(e);
      break;
    case "action":
      if (e.chat === state.chat) {
        const words = {typing: "typing…", upload_photo: "sending a photo…", upload_document: "sending a file…"};
        $("#chat-status").textContent = `${state.bot.name} is ${words[e.action] || e.action}`;
        clearTimeout(actionTimer);
        actionTimer = setTimeout(() => { const c = openChat(); if (c) $("#chat-status").textContent = statusOf(c); }, 4000);
      }
      break;
    case "commands":
      if (state.chat) api(`/pg/chats/${state.chat}/commands?user=${state.user}`).then((c) => { state.commands = c; });
      break;
    default:
      reloadSoon();
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/pg/ws`);
  ws.onmessage = (m) => {
    const e = JSON.parse(m.data);
    if (e.type !== "hello") onEvent(e);
  };
  ws.onopen = () => document.body.classList.add("live");
  ws.onclose = () => {
    document.body.classList.remove("live");
    setTimeout(() => { connect(); reloadSoon(); renderChat(); }, 1000);
  };
}

// ------------------------------------------------------------------ start
async function main() {
  await loadUsers();
  await loadChats();
  const wantChat = new URLSearchParams(location.search).get("chat");
  if (wantChat && state.chats.some((c) => String(c.ref) === wantChat)) await selectChat(Number(wantChat));
  $("#user-select").onchange = async (ev) => {
    state.user = Number(ev.target.value);
    state.chat = null;
    cancelReply();
    $("#app").className = "show-list";
    closePanels();
    await loadChats();
    await renderChat();
  };
  $("#new-user").onclick = newUser;
  $("#new-group").onclick = newGroup;
  $("#new-dialog").onclick = newDialog;
  $("#open-link").onclick = openLinkPrompt;
  $("#back").onclick = () => { $("#app").className = "show-list"; closePanels(); };
  $("#composer-input").addEventListener("input", onType);
  $("#composer").onsubmit = async (ev) => {
    ev.preventDefault();
    const input = $("#composer-input");
    const text = input.value;
    if (text.toLowerCase().startsWith(`@${state.bot.username.toLowerCase()}`)) return;
    input.value = "";
    closePanels();
    await send(text);
  };
  bindMiniApp();
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { closePanels(); cancelReply(); $("#modal").hidden = true; }
  });
  document.addEventListener("click", (ev) => {
    if (!ev.target.closest("#msg-menu")) $("#msg-menu").hidden = true;
  });
  $("#reply-cancel").onclick = cancelReply;
  connect();
  document.body.dataset.ready = "1";
}

main();
