"use strict";
var OTHER = "\u0000other";
var COMMON = ["tts.voice", "tts.rate", "room", "brain.mode", "privacy.mode"];
function $(id) { return document.getElementById(id); }
function element(tag, text, className) {
  var item = document.createElement(tag);
  if (text !== undefined) { item.textContent = text; }
  if (className) { item.className = className; }
  return item;
}
function show(text, isError) {
  var message = $("message");
  message.textContent = text;
  message.className = isError ? "error" : "saved";
}
function NeedsToken() { this.message = "the owner token is needed"; }
function request(path, options) {
  options = options || {};
  options.credentials = "same-origin";
  options.cache = "no-store";
  return fetch(path, options).then(function (reply) {
    // While setup finishes, the token exists a moment before the page's session does.
    if (reply.status === 401) { if (!finishing) { locked(true); } throw new NeedsToken(); }
    return reply;
  });
}
function getJSON(path) {
  return request(path).then(function (reply) {
    return reply.json().then(function (body) {
      if (!reply.ok) { throw new Error(body.error || (path + ": HTTP " + reply.status)); }
      return body;
    });
  });
}
function postJSON(path, body) {
  return request(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
  }).then(function (reply) {
    return reply.json().then(function (answer) { return { ok: reply.ok, status: reply.status, body: answer }; });
  });
}
// After setup the speaker wants its owner: the page then shows only the sign-in form.
function locked(isLocked) {
  $("signin").hidden = !isLocked;
  $("owner").hidden = isLocked;
  if (isLocked) { stopLive(); document.body.setAttribute("data-ready", "signin"); }
}
function option(select, value, text) {
  var item = element("option", text);
  item.value = value;
  select.appendChild(item);
}
function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }
function failed(error) { if (!(error instanceof NeedsToken)) { show(String(error.message || error), true); } }

// Status and control.
function refreshStatus() {
  return getJSON("/status").then(function (status) {
    if (status.state === undefined) { $("state").textContent = "(sign in to see more)"; return; }
    $("state").textContent = status.state + (status.setup_mode ? " (setup mode" +
      (status.setup_mode_reason ? " again: " + status.setup_mode_reason : "") + ")" : "");
    $("playback").textContent = status.playback + (status.media ? ": " + status.media : "");
    $("volume").textContent = status.volume;
    $("version").textContent = status.version;
  });
}
function command(path) {
  return request(path, { method: "POST" })
    .then(function (reply) { return reply.json(); })
    .then(function (body) { if (body.error) { show(body.error, true); } })
    .then(refreshStatus)
    .catch(failed);
}
Array.prototype.forEach.call(document.querySelectorAll("button[data-command]"), function (button) {
  button.addEventListener("click", function () { command("/" + button.getAttribute("data-command")); });
});
$("test-voice").addEventListener("click", function () {
  show("Speaking a sample…", false);
  command("/say?text=" + encodeURIComponent("Hello, this is how I sound. What can I do for you?"));
});

// The location is looked up on the speaker (offline), which says what it set.
$("set-location").addEventListener("click", function () {
  var note = $("msg-location");
  note.textContent = "Looking it up…";
  note.className = "field-message";
  postJSON("/location", { place: $("location").value }).then(function (reply) {
    $("location").classList.toggle("invalid", !reply.ok);
    note.textContent = reply.ok ? "Set " + reply.body.location : (reply.body.error || ("HTTP " + reply.status));
    note.className = "field-message " + (reply.ok ? "saved" : "invalid");
  }).catch(failed);
});

// Saving one setting; the server's verdict is shown beside the field.
function save(key, value, field) {
  var note = $("msg-" + key) || $("message");
  note.textContent = "Saving…";
  note.className = "field-message";
  return postJSON("/settings", { key: key, value: value }).then(function (reply) {
    if (field) { field.classList.toggle("invalid", !reply.ok); }
    if (reply.ok) {
      note.textContent = "Saved " + reply.body.key + " = " + reply.body.value;
      note.className = "field-message saved";
    } else {
      note.textContent = reply.body.error || ("HTTP " + reply.status);
      note.className = "field-message invalid";
    }
    return reply;
  }).catch(function (error) { failed(error); note.textContent = String(error.message || error); });
}
function loadCommon() {
  return Promise.all([getJSON("/settings"), getJSON("/voices")]).then(function (results) {
    var settings = results[0], voices = results[1];
    var voice = $("voice");
    clear(voice);
    var known = false;
    voices.forEach(function (v) {
      option(voice, v.id, v.name + " (" + v.id + ")");
      if (v.id === settings["tts.voice"]) { known = true; }
    });
    if (!known) { option(voice, settings["tts.voice"], settings["tts.voice"]); }
    voice.value = settings["tts.voice"];
    $("rate").value = settings["tts.rate"];
    var room = $("room");
    clear(room);
    option(room, "", "(not set)");
    settings.rooms.forEach(function (name) { option(room, name, name); });
    if (settings.room && settings.rooms.indexOf(settings.room) < 0) { option(room, settings.room, settings.room); }
    option(room, OTHER, "Other…");
    room.value = settings.room;
    $("mode").value = settings["brain.mode"];
    $("hotspot").textContent = "First-setup Wi-Fi \u201c" + settings.hotspot_ssid + "\u201d: " +
      (settings.hotspot_passphrase ? "password " + settings.hotspot_passphrase : "open, no password");
  });
}
$("voice").addEventListener("change", function (event) { save("tts.voice", event.target.value); });
$("rate").addEventListener("change", function (event) { save("tts.rate", event.target.value); });
$("mode").addEventListener("change", function (event) { save("brain.mode", event.target.value); });
$("room").addEventListener("change", function (event) {
  var other = $("room-other");
  if (event.target.value === OTHER) { other.hidden = false; other.focus(); return; }
  other.hidden = true;
  save("room", event.target.value);
});
$("room-other").addEventListener("change", function (event) { save("room", event.target.value.trim()); });

// Every other setting, one field each.
function loadAllSettings() {
  return getJSON("/settings/keys").then(function (keys) {
    var box = $("all-settings");
    clear(box);
    keys.forEach(function (entry) {
      if (entry.key === "privacy.mode") { $("privacy").checked = entry.value === "true"; }
      if (COMMON.indexOf(entry.key) >= 0) { return; }
      var field = element("div", undefined, "field");
      var label = element("label", entry.key + (entry.restart ? " (restart)" : ""));
      var input = element("input");
      input.id = "setting-" + entry.key;
      input.setAttribute("data-key", entry.key);
      label.htmlFor = input.id;
      if (entry.kind === "bool") { input.type = "checkbox"; input.checked = entry.value === "true"; }
      else if (entry.kind === "secret") {
        // Write-only: the speaker never sends a secret back, only whether one is set.
        input.type = "password"; input.autocomplete = "off";
        input.placeholder = entry.set ? "(set; type a new one to replace it)" : "(not set)";
      }
      else { input.type = "text"; input.value = entry.value; }
      input.disabled = !entry.editable;
      field.appendChild(label);
      field.appendChild(input);
      field.appendChild(element("small", entry.summary + (entry.editable ? "" : " (change it in the config file)")));
      var note = element("span", "", "field-message");
      note.id = "msg-" + entry.key;
      field.appendChild(note);
      input.addEventListener("change", function () {
        save(entry.key, input.type === "checkbox" ? String(input.checked) : input.value, input);
      });
      box.appendChild(field);
    });
  });
}
$("privacy").addEventListener("change", function (event) {
  save("privacy.mode", String(event.target.checked)).then(loadHistory).catch(failed);
});

// What can be said.
var examples = [];
function showExamples() {
  var filter = $("example-filter").value.trim().toLowerCase();
  var list = $("examples");
  clear(list);
  examples.filter(function (e) {
    return !filter || e.query.toLowerCase().indexOf(filter) >= 0 || e.skill.toLowerCase().indexOf(filter) >= 0;
  }).forEach(function (e) {
    var item = element("li", "“" + e.query + "”");
    item.appendChild(element("span", " " + e.skill, "muted"));
    list.appendChild(item);
  });
  if (!list.firstChild) { list.appendChild(element("li", "No examples match.", "muted")); }
}
function loadExamples() {
  return getJSON("/examples").then(function (list) { examples = list; showExamples(); });
}
$("example-filter").addEventListener("input", showExamples);

// Timers.
function loadTimers() {
  return getJSON("/timers").then(showTimers, function (error) {
    var list = $("timers");
    clear(list);
    list.appendChild(element("li", String(error.message || error), "muted"));
  });
}
function showTimers(reply) {
  var list = $("timers");
  clear(list);
  var KINDS = { timer: "Timer", alarm: "Alarm", reminder: "Reminder" };
  reply.timers.forEach(function (timer) {
    var when = (timer.time ? "at " + timer.time + (timer.repeats === "weekdays" ? " on weekdays" : "") + ", " : "")
      + "in " + timer.seconds_left + " s ";
    var item = element("li", (KINDS[timer.kind] || "Timer") + ": " + timer.text + " — " + when);
    item.setAttribute("data-kind", timer.kind);
    item.setAttribute("data-id", timer.id);
    var cancel = element("button", "Cancel");
    cancel.addEventListener("click", function () {
      postJSON("/timers/cancel", { id: timer.id }).then(function (answer) {
        if (!answer.ok) { show(answer.body.error, true); }
        return loadTimers();
      }).catch(failed);
    });
    item.appendChild(cancel);
    list.appendChild(item);
  });
  if (!reply.timers.length) { list.appendChild(element("li", "No timers, alarms or reminders are set.", "muted")); }
}

// Lists.
function loadLists() {
  return getJSON("/lists").then(showLists, function (error) {
    if (error instanceof NeedsToken) { throw error; }
    var box = $("lists");
    clear(box);
    box.appendChild(element("p", String(error.message || error), "muted"));
  });
}
function changeList(path, body) {
  return postJSON(path, body).then(function (answer) {
    if (!answer.ok) { show(answer.body.error, true); return loadLists(); }
    showLists(answer.body);
  }).catch(failed);
}
function showLists(reply) {
  var box = $("lists");
  clear(box);
  reply.lists.forEach(function (named) {
    box.appendChild(element("h3", named.name));
    var items = element("ul");
    items.setAttribute("data-list", named.name);
    named.items.forEach(function (text) {
      var item = element("li", text + " ");
      var remove = element("button", "Remove");
      remove.addEventListener("click", function () { changeList("/lists/remove", { list: named.name, item: text }); });
      item.appendChild(remove);
      items.appendChild(item);
    });
    box.appendChild(items);
    var clearButton = element("button", "Clear " + named.name + " list");
    clearButton.addEventListener("click", function () { changeList("/lists/clear", { list: named.name }); });
    box.appendChild(clearButton);
  });
  if (!reply.lists.length) { box.appendChild(element("p", "No lists yet. Say: add milk to my shopping list.", "muted")); }
}
$("list-add-button").addEventListener("click", function () {
  var text = $("list-item").value.trim();
  if (!text) { return; }
  changeList("/lists/add", { list: $("list-name").value, item: text }).then(function () { $("list-item").value = ""; });
});

// History.
function describe(interaction) {
  var item = element("li");
  var when = new Date(interaction.started);
  item.appendChild(element("span", when.toLocaleTimeString() + " ", "muted"));
  item.appendChild(element("strong", interaction.heard || "(nothing understood)"));
  if (interaction.answers.length) { item.appendChild(element("div", "→ " + interaction.answers.join(" "))); }
  if (interaction.actions.length) { item.appendChild(element("div", "did: " + interaction.actions.join(", "), "muted")); }
  if (interaction.problem) { item.appendChild(element("div", interaction.problem, "error")); }
  return item;
}
function loadHistory() {
  return getJSON("/history").then(function (reply) {
    var list = $("history");
    clear(list);
    reply.interactions.forEach(function (interaction) { list.appendChild(describe(interaction)); });
    $("privacy").checked = reply.privacy;
    $("history-note").textContent = reply.privacy
      ? "Privacy mode is on: nothing is kept."
      : (reply.interactions.length ? "The last " + reply.capacity + " are kept." : "Nothing yet.");
  }, function (error) { $("history-note").textContent = String(error.message || error); });
}
$("clear-history").addEventListener("click", function () {
  postJSON("/history/clear", {}).then(function (answer) {
    if (!answer.ok) { show(answer.body.error, true); }
    return loadHistory();
  }).catch(failed);
});

// Hearing figures.
function loadHearing() {
  return getJSON("/hearing").then(function (reply) {
    var list = $("hearing");
    clear(list);
    function row(name, value) { list.appendChild(element("dt", name)); list.appendChild(element("dd", String(value))); }
    row("Wake word", reply.wake.enabled ? "“" + reply.wake.phrase + "”" : "off");
    row("Engine", reply.wake.engine + (reply.wake.verify ? ", verified" : ""));
    if (reply.wake.detector) { row("Wakes with", reply.wake.detector); }
    row("Threshold", reply.wake.engine === "neural"
      ? (reply.wake.neural_threshold || "as trained") : reply.wake.threshold);
    if (reply.today) {
      row("Wakes today", reply.today.wakes);
      row("Likely false wakes today", reply.today.likely_false_wakes);
    } else {
      row("Today", "not listening (setup server only)");
    }
  });
}

// The live conversation, from the pipeline's events.
var live = null;
function liveLine(text, className) {
  var list = $("live");
  list.insertBefore(element("li", text, className), list.firstChild);
  while (list.childNodes.length > 50) { list.removeChild(list.lastChild); }
}
var LIVE = {
  wake: function (e) { liveLine("Woke up (“" + e.phrase + "”)", "wake"); },
  listening: function () { $("live-state").textContent = "Listening…"; },
  transcript: function (e) { liveLine(e.text || "(nothing heard)", "heard"); },
  answer: function (e) {
    var others = (e.actions || []).map(function (a) { return a.type; }).filter(function (t) { return t !== "answer"; });
    if (others.length) { liveLine("actions: " + others.join(", "), "actions"); }
  },
  speak_start: function (e) { liveLine(e.text, "answered"); },
  play: function (e) { liveLine("plays " + e.identifier_type + " " + e.identifier, "actions"); },
  player: function (e) { liveLine("player: " + e.command, "actions"); },
  error: function (e) { liveLine(e.stage + " problem: " + e.message, "error"); },
  idle: function () {
    $("live-state").textContent = "Waiting for the wake word.";
    loadHistory(); loadTimers(); loadLists().catch(function () {}); loadHearing().catch(function () {});
  }
};
function startLive() {
  if (!window.EventSource) { $("live-state").textContent = "This browser cannot show the live view."; return; }
  if (live) { return; }
  live = new EventSource("/events", { withCredentials: true });
  live.onopen = function () {
    document.body.setAttribute("data-live", "open");
    $("live-state").textContent = "Waiting for the wake word.";
  };
  live.onerror = function () {
    document.body.setAttribute("data-live", "closed");
    // A refused stream (no pipeline, too many views) is not retried by the browser.
    $("live-state").textContent = live && live.readyState === EventSource.CLOSED
      ? "No live view: the voice pipeline is not running here, or too many pages are open."
      : "Connection lost; reconnecting…";
  };
  Object.keys(LIVE).forEach(function (name) {
    live.addEventListener(name, function (message) {
      var event = {};
      try { event = JSON.parse(message.data); } catch (ignored) { return; }
      LIVE[name](event);
    });
  });
}
function stopLive() { if (live) { live.close(); live = null; } }

// The microphone level, polled while the page is shown.
var levelTimer = null;
function pollLevel() {
  if (document.hidden) { return; }
  getJSON("/level").then(function (reply) {
    $("level").value = reply.level;
    $("phase").textContent = "(" + reply.phase + ")";
    $("level-box").className = reply.phase === "listening" ? "listening" : "";
  }, function () {
    $("phase").textContent = "(not listening)";
    clearInterval(levelTimer);
  });
}

// Everything the page shows; the live view and the meter start once the owner is known.
function loadAll() {
  return Promise.all([loadCommon(), refreshStatus(), loadAllSettings(), loadExamples(), loadTimers(), loadLists(), loadHistory(),
    loadHearing().catch(function (error) { if (error instanceof NeedsToken) { throw error; } })])
    .then(function () {
      locked(false);
      startLive();
      clearInterval(levelTimer);
      levelTimer = setInterval(pollLevel, 250);
      document.body.setAttribute("data-ready", "yes");
    })
    .catch(failed);
}
$("signin").addEventListener("submit", function (event) {
  event.preventDefault();
  request("/session", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: $("token").value.trim() })
  }).then(function (reply) {
    if (!reply.ok) { show("That is not the owner token.", true); return; }
    $("token").value = "";
    show("Signed in.", false);
    return loadAll();
  }).catch(function (error) {
    if (error instanceof NeedsToken) { show("That is not the owner token.", true); } else { failed(error); }
  });
});

// First setup, for a browser: the calls the SUSI apps make, in their order and with
// their parameters; then the voice and wake word as the owner, with the token /config gave.
var NEW_NETWORK = "\u0000new", KEEP_NETWORK = "\u0000keep";
var scanned = {};
var finishing = false;
function SetupFailure(path, body, status) {
  this.path = path;
  this.message = body.error || (path + ": HTTP " + status);
}
function setupCall(path, fields) {
  var body = Object.keys(fields).map(function (name) {
    return encodeURIComponent(name) + "=" + encodeURIComponent(fields[name]);
  }).join("&");
  return fetch(path, {
    method: "POST", credentials: "same-origin", cache: "no-store",
    headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: body
  }).then(function (reply) {
    return reply.json().catch(function () { return {}; }).then(function (answer) {
      if (!reply.ok) { throw new SetupFailure(path, answer, reply.status); }
      return answer;
    });
  });
}
function strength(signal) { return signal >= -60 ? "strong" : signal >= -75 ? "fair" : "weak"; }
function showNetworks(scan) {
  var select = $("setup-network");
  var chosen = select.value;
  clear(select);
  scanned = {};
  option(select, "", scan.networks.length ? "Choose a network…" : "No networks listed");
  scan.networks.forEach(function (network) {
    scanned[network.ssid] = network;
    option(select, network.ssid, network.ssid + (network.secure ? "" : " (open)") + ", " + strength(network.signal) + " signal");
  });
  option(select, NEW_NETWORK, "Another network (type its name)");
  option(select, KEEP_NETWORK, "Keep the speaker's current connection");
  var keep = scanned[chosen] || chosen === NEW_NETWORK || chosen === KEEP_NETWORK;
  select.value = keep ? chosen : (scan.networks.length ? "" : NEW_NETWORK);
  $("setup-scan").textContent = scan.reason
    ? "No networks listed: " + scan.reason + ". Type the network's name."
    : "Networks the speaker sees, strongest first.";
  networkChosen();
}
function networkChosen() {
  var value = $("setup-network").value;
  $("setup-ssid-box").hidden = value !== NEW_NETWORK;
  $("setup-ssid").required = value === NEW_NETWORK;
  $("setup-password-box").hidden = value === KEEP_NETWORK || (scanned[value] !== undefined && !scanned[value].secure);
}
// Only in setup mode does /wifi_networks answer; otherwise there is nothing to set up.
function loadSetup() {
  return fetch("/wifi_networks", { credentials: "same-origin", cache: "no-store" }).then(function (reply) {
    return reply.json().then(function (scan) {
      if (!reply.ok) { $("setup").hidden = $("setup-done").hidden; return; }
      $("setup").hidden = false;
      showNetworks(scan);
      if (!$("setup-voice").options.length) { return loadSetupVoices(); }
    });
  }).catch(function (error) { $("setup-scan").textContent = String(error.message || error); });
}
function loadSetupVoices() {
  return getJSON("/voices").then(function (voices) {
    var select = $("setup-voice");
    clear(select);
    voices.forEach(function (v) { option(select, v.id, v.name + " (" + v.id + ")"); });
    if (voices.some(function (v) { return v.id === "en-us"; })) { select.value = "en-us"; }
  });
}
function setupAuth() { return $("setup-auth-y").checked ? "y" : "n"; }
function accountChosen() {
  var signIn = setupAuth() === "y";
  $("setup-account").hidden = !signIn;
  $("setup-email").required = signIn;
  $("setup-password").required = signIn;
}
function setupNote(id, text) {
  var note = $(id);
  note.textContent = text;
  note.className = "field-message" + (text ? " invalid" : "");
}
function progress(text) { $("setup-progress").textContent = text; }
// What the form says, or null (with the reason shown) when it is not complete.
function setupChoice() {
  ["setup-msg-wifi", "setup-msg-auth", "setup-msg-room", "setup-msg-wake"].forEach(function (id) { setupNote(id, ""); });
  var network = $("setup-network").value;
  var choice = {
    keep: network === KEEP_NETWORK, ssid: network === NEW_NETWORK ? $("setup-ssid").value : network,
    wifiPassword: $("setup-password-box").hidden ? "" : $("setup-wifi-password").value,
    auth: setupAuth(), email: $("setup-email").value.trim(), password: $("setup-password").value,
    room: $("setup-room").value.trim(), voice: $("setup-voice").value,
    voiceName: $("setup-voice").selectedOptions.length ? $("setup-voice").selectedOptions[0].textContent : $("setup-voice").value,
    wake: $("setup-wake").value.trim().replace(/\s+/g, " ")
  };
  if (!choice.keep && !choice.ssid) { setupNote("setup-msg-wifi", "Choose a network, or type its name."); return null; }
  if (choice.wifiPassword && (choice.wifiPassword.length < 8 || choice.wifiPassword.length > 64)) {
    setupNote("setup-msg-wifi", "A Wi-Fi password has 8 to 63 characters (or is a 64-digit key)."); return null;
  }
  if (choice.auth === "y" && (!choice.email || !choice.password)) {
    setupNote("setup-msg-auth", "Enter your SUSI.AI email and password, or choose No account."); return null;
  }
  if (!choice.room) { setupNote("setup-msg-room", "Name the room the speaker is in."); return null; }
  // The check config applies to hotword.phrase, done first: setup cannot be undone.
  if (!/^[\p{L}']+( [\p{L}']+){0,3}$/u.test(choice.wake)) {
    setupNote("setup-msg-wake", "The wake word is one to four words of letters."); return null;
  }
  return choice;
}
function setupFailed(error) {
  var field = { "/speaker_config": "setup-msg-room", "/wifi_credentials": "setup-msg-wifi", "/auth": "setup-msg-auth" }[error.path];
  if (field) { setupNote(field, String(error.message)); }
  progress("Not finished: " + String(error.message || error));
  document.body.setAttribute("data-setup", "failed");
}
function setupDone(choice, replies) {
  var list = $("setup-details");
  clear(list);
  function line(text) { list.appendChild(element("li", text)); return list.lastChild; }
  if (choice.keep) {
    line("The speaker keeps its current network connection.");
  } else {
    line("The speaker is joining \u201c" + choice.ssid + "\u201d. Reconnect this phone or laptop to \u201c" + choice.ssid +
      "\u201d, then open the speaker's page at its address there (your router lists it).");
    line("If it cannot join, its setup hotspot opens again after a few minutes, and you can set it up again.");
  }
  if (choice.auth === "n") {
    line("No SUSI.AI account: the speaker answers without one.");
  } else {
    line(replies.auth.note ? "SUSI.AI account " + choice.email + ": " + replies.auth.note + "."
      : "Signed in to SUSI.AI as " + choice.email + ".");
  }
  line("Room \u201c" + choice.room + "\u201d.");
  [["Voice", replies.voice, choice.voiceName], ["Wake word", replies.wake, "\u201c" + choice.wake + "\u201d"]].forEach(function (saved) {
    line(saved[1].ok ? saved[0] + ": " + saved[2] + "." : saved[0] + " not saved (" + (saved[1].body.error || "HTTP " + saved[1].status) +
      "); change it under Settings.").className = saved[1].ok ? "" : "error";
  });
  if (replies.config.note) { line("Note: " + replies.config.note + "."); }
  var token = line("Owner token: ");
  token.appendChild(element("code", replies.config.owner_token)).id = "setup-token";
  token.appendChild(document.createTextNode(". Write it down: the page asks for it once when opened at another address or " +
    "in another browser (susi setup token on the speaker prints it too)."));
  $("setup-form").hidden = true;
  $("setup-done").hidden = false;
  progress("");
  $("setup-done-title").focus();
  document.body.setAttribute("data-setup", "done");
}
$("setup-network").addEventListener("change", networkChosen);
$("setup-rescan").addEventListener("click", function () { $("setup-scan").textContent = "Looking…"; loadSetup(); });
$("setup-auth-y").addEventListener("change", accountChosen);
$("setup-auth-n").addEventListener("change", accountChosen);
$("setup-form").addEventListener("submit", function (event) {
  event.preventDefault();
  if (finishing) { return; }
  var choice = setupChoice();
  if (!choice) { return; }
  finishing = true;
  $("setup-finish").disabled = true;
  document.body.setAttribute("data-setup", "working");
  var replies = {};
  progress("Saving the room…");
  setupCall("/speaker_config", { room_name: choice.room }).then(function () {
    if (choice.keep) { return null; }
    progress("Saving the Wi-Fi network…");
    return setupCall("/wifi_credentials", { wifissid: choice.ssid, wifipassd: choice.wifiPassword });
  }).then(function () {
    progress(choice.auth === "y" ? "Signing in to SUSI.AI…" : "Saving the account choice…");
    return setupCall("/auth", choice.auth === "y"
      ? { auth: "y", email: choice.email, password: choice.password } : { auth: "n" });
  }).then(function (auth) {
    replies.auth = auth;
    progress("Finishing setup…");
    // The apps send cloud engine names, which the speaker maps to these; the page names them.
    return setupCall("/config", { stt: "whisper", tts: "espeak-ng", hotword: "y", wake: "n" });
  }).then(function (config) {
    replies.config = config;
    // Setup gave this page the owner token, once; its session keeps it as signing in would.
    return postJSON("/session", { token: config.owner_token });
  }).then(function (session) {
    if (!session.ok) { throw new Error("the speaker did not accept its own owner token"); }
    progress("Saving the voice and wake word…");
    return postJSON("/settings", { key: "tts.voice", value: choice.voice });
  }).then(function (voice) {
    replies.voice = voice;
    return postJSON("/settings", { key: "hotword.phrase", value: choice.wake });
  }).then(function (wake) {
    replies.wake = wake;
    finishing = false;
    setupDone(choice, replies);
    return loadAll();
  }).catch(function (error) {
    finishing = false;
    $("setup-finish").disabled = false;
    if (replies.config) {
      // Setup is over even so: never lose the token.
      replies.voice = replies.voice || { ok: false, status: 0, body: { error: String(error.message || error) } };
      replies.wake = replies.wake || replies.voice;
      setupDone(choice, replies);
      return;
    }
    setupFailed(error);
  });
});

window.susiPage = { stopLive: stopLive };
loadAll();
loadSetup();
setInterval(function () { refreshStatus().catch(function () {}); }, 5000);
