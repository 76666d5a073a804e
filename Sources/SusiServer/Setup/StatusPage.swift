/// The web page served at `/`: status and the settings a person changes from a phone browser
/// (voice, speech rate, room, brain mode), plus play controls.
///
/// Plain HTML and a little JavaScript, no outside assets, so it works on the speaker's own
/// hotspot without internet. It reads `/status`, `/settings` and `/voices`, and sends each
/// change as `POST /settings` with `{"key", "value"}`; what the server says (saved, or why
/// not) is shown in `#message`. When the server wants the owner (401), it shows a sign-in form
/// instead: the owner token entered there goes to `POST /session`, whose HttpOnly,
/// SameSite=Strict cookie the page's same-origin requests then carry.
enum StatusPage {
    static let html = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>SUSI speaker</title>
        <style>
        body { font-family: sans-serif; max-width: 32em; margin: 1em auto; padding: 0 1em; color: #222; }
        h1 { font-size: 1.4em; }
        label { display: block; margin: .8em 0 .2em; font-weight: bold; }
        select, input { font-size: 1em; width: 100%; box-sizing: border-box; padding: .3em; }
        button { font-size: 1em; margin: .2em .2em .2em 0; padding: .4em .8em; }
        dl { display: grid; grid-template-columns: auto 1fr; gap: .2em 1em; }
        dt { color: #666; }
        #message { min-height: 1.5em; margin-top: 1em; }
        .error { color: #b00; }
        </style>
        </head>
        <body>
        <h1>SUSI speaker</h1>
        <dl id="status">
        <dt>State</dt><dd id="state">…</dd>
        <dt>Playing</dt><dd id="playback">…</dd>
        <dt>Volume</dt><dd id="volume">…</dd>
        <dt>Version</dt><dd id="version">…</dd>
        </dl>
        <form id="signin" hidden>
        <label for="token">Owner token (<code>susi setup token</code> on the speaker prints it)</label>
        <input id="token" type="password" autocomplete="current-password" required>
        <button type="submit">Sign in</button>
        </form>
        <div id="controls">
        <button data-command="pause">Pause</button><button data-command="resume">Resume</button>
        <button data-command="stop">Stop</button><button data-command="volume/down">Volume −</button>
        <button data-command="volume/up">Volume +</button>
        </div>
        <form id="settings" onsubmit="return false">
        <label for="voice">Voice and accent</label>
        <select id="voice" data-key="tts.voice"></select>
        <label for="rate">Speech rate (words per minute)</label>
        <input id="rate" data-key="tts.rate" type="number" min="80" max="450" step="5">
        <label for="room">Room</label>
        <select id="room" data-key="room"></select>
        <input id="room-other" data-key="room" type="text" maxlength="64" placeholder="Another room" hidden>
        <label for="mode">Answers from</label>
        <select id="mode" data-key="brain.mode">
        <option value="hybrid">SUSI server, built-in skills when offline (hybrid)</option>
        <option value="remote">SUSI server only (remote)</option>
        <option value="local">Built-in skills only (local)</option>
        </select>
        </form>
        <p id="message" role="status"></p>
        <script>
        "use strict";
        var OTHER = "\u0000other";
        function $(id) { return document.getElementById(id); }
        function show(text, isError) {
          var message = $("message");
          message.textContent = text;
          message.className = isError ? "error" : "saved";
        }
        function getJSON(path) {
          return fetch(path, { cache: "no-store" }).then(function (reply) {
            if (!reply.ok) {
              var error = new Error(path + ": HTTP " + reply.status);
              error.status = reply.status;
              throw error;
            }
            return reply.json();
          });
        }
        function locked(isLocked) {
          $("signin").hidden = !isLocked;
          $("controls").hidden = isLocked;
          $("settings").hidden = isLocked;
          if (isLocked) { document.body.setAttribute("data-ready", "signin"); }
        }
        function option(select, value, text) {
          var item = document.createElement("option");
          item.value = value;
          item.textContent = text;
          select.appendChild(item);
        }
        function refreshStatus() {
          return getJSON("/status").then(function (status) {
            if (status.state === undefined) { $("state").textContent = "(sign in to see more)"; return; }
            $("state").textContent = status.state + (status.setup_mode ? " (setup mode)" : "");
            $("playback").textContent = status.playback + (status.media ? ": " + status.media : "");
            $("volume").textContent = status.volume;
            $("version").textContent = status.version;
          });
        }
        function save(key, value) {
          show("Saving…", false);
          return fetch("/settings", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ key: key, value: value })
          }).then(function (reply) {
            return reply.json().then(function (body) {
              if (reply.ok) { show("Saved " + body.key + " = " + body.value, false); }
              else { show(body.error || ("HTTP " + reply.status), true); }
            });
          }).catch(function (error) { show(String(error), true); });
        }
        function load() {
          return Promise.all([getJSON("/settings"), getJSON("/voices")]).then(function (results) {
            var settings = results[0], voices = results[1];
            var voice = $("voice");
            voice.textContent = "";
            var known = false;
            voices.forEach(function (v) {
              option(voice, v.id, v.name + " (" + v.id + ")");
              if (v.id === settings["tts.voice"]) { known = true; }
            });
            if (!known) { option(voice, settings["tts.voice"], settings["tts.voice"]); }
            voice.value = settings["tts.voice"];
            $("rate").value = settings["tts.rate"];
            var room = $("room");
            room.textContent = "";
            option(room, "", "(not set)");
            settings.rooms.forEach(function (name) { option(room, name, name); });
            if (settings.room && settings.rooms.indexOf(settings.room) < 0) { option(room, settings.room, settings.room); }
            option(room, OTHER, "Other…");
            room.value = settings.room;
            $("mode").value = settings["brain.mode"];
            locked(false);
            document.body.setAttribute("data-ready", "yes");
          }, function (error) {
            if (error.status === 401) { locked(true); return; }
            throw error;
          });
        }
        $("signin").addEventListener("submit", function (event) {
          event.preventDefault();
          fetch("/session", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ token: $("token").value.trim() })
          }).then(function (reply) {
            if (!reply.ok) { show("That is not the owner token.", true); return; }
            $("token").value = "";
            show("Signed in.", false);
            return Promise.all([load(), refreshStatus()]);
          }).catch(function (error) { show(String(error), true); });
        });
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
        Array.prototype.forEach.call(document.querySelectorAll("button[data-command]"), function (button) {
          button.addEventListener("click", function () {
            fetch("/" + button.getAttribute("data-command"), { method: "POST" })
              .then(function (reply) { return reply.json(); })
              .then(function (body) { if (body.error) { show(body.error, true); } })
              .then(refreshStatus)
              .catch(function (error) { show(String(error), true); });
          });
        });
        Promise.all([load(), refreshStatus()]).catch(function (error) { show(String(error), true); });
        setInterval(function () { refreshStatus().catch(function () {}); }, 5000);
        </script>
        </body>
        </html>
        """#
}
