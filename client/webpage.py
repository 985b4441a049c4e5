"""The two pages ``scopa web`` serves: the name form and the game page (the terminal).

Everything they need comes from the web host itself: textual-serve's own script, style
sheet and Roboto Mono font (under ``/static``); nothing is loaded from the internet.
The game page sizes its font so the terminal suits the screen it is on (a phone held
either way gets at least 40 columns standing and about 24 rows lying), keeps the phone's
on-screen keyboard away until asked for (cards are played by tapping), and shows a
"play again" button when the session ends.
"""

from __future__ import annotations

from html import escape

from scopa.protocol.parties import NAME_PATTERN

FONT = "/static/fonts/RobotoMono-VariableFont_wght.ttf"
BAR_HEIGHT = 34  # px: the strip above the terminal

_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">
<meta name="theme-color" content="#0c181f">
<link rel="icon" href="data:,">
<title>{title}</title>
<style>
@font-face {{ font-family: "Roboto Mono"; src: url("{font}") format("truetype"); font-display: block; }}
html, body {{ margin: 0; padding: 0; height: 100%; background: #0c181f; color: #e8eef2;
  font: 16px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }}
a {{ color: #9fd3ff; }}
button, input {{ font: inherit; }}
</style>
"""

NAME_PAGE = _HEAD + """<style>
main {{ max-width: 26em; margin: 0 auto; padding: 1.5em 1em; }}
h1 {{ font-size: 1.6em; margin: 0 0 .4em; }}
label {{ display: block; margin: 1em 0 .4em; }}
input {{ width: 100%; box-sizing: border-box; padding: .7em; font-size: 1.2em; border-radius: .4em;
  border: 1px solid #5b7283; background: #12232d; color: inherit; }}
button {{ margin-top: 1em; width: 100%; padding: .8em; font-size: 1.2em; border: 0; border-radius: .4em;
  background: #2e7d32; color: white; }}
.error {{ color: #ffb4a9; }}
.hint {{ color: #9db0bd; font-size: .9em; }}
</style>
</head>
<body>
<main>
<h1>Scopa</h1>
<p class="hint">The Italian card game. Choose the name the other players will see.</p>
<form method="post" action="/name">
<label for="name">Your name</label>
<input id="name" name="name" value="{name}" maxlength="24" pattern="{pattern}"
  autocomplete="nickname" autocapitalize="none" spellcheck="false" required autofocus>
<p class="hint">Letters (accented ones too), digits, dot, dash or underscore; at most 24.</p>
<p class="error">{error}</p>
<button type="submit" id="play">Play</button>
</form>
</main>
</body>
</html>
"""

GAME_PAGE = _HEAD + """<link rel="preload" href="{font}" as="font" type="font/ttf" crossorigin>
<link rel="stylesheet" href="/static/css/xterm.css">
<script src="/static/js/textual.js"></script>
<style>
html, body {{ overflow: hidden; overscroll-behavior: none; }}
body {{ touch-action: manipulation; -webkit-user-select: none; user-select: none; }}
#bar {{ height: {bar}px; box-sizing: border-box; display: flex; align-items: center; gap: .6em;
  padding: 0 .5em; font-size: 14px; white-space: nowrap; overflow: hidden; }}
#bar .who {{ flex: 1; overflow: hidden; text-overflow: ellipsis; color: #9db0bd; }}
#bar button {{ padding: .2em .6em; border-radius: .3em; border: 1px solid #5b7283;
  background: #12232d; color: inherit; font-size: 14px; }}
#bar button[aria-pressed="true"] {{ background: #2e7d32; border-color: #2e7d32; }}
body .textual-terminal {{ width: 100vw; height: calc(100vh - {bar}px); height: calc(100dvh - {bar}px); }}
#ended {{ display: none; position: fixed; inset: 0; background: rgba(12, 24, 31, .92);
  align-items: center; justify-content: center; flex-direction: column; gap: 1em; z-index: 10; }}
body.-closed #ended {{ display: flex; }}
#ended button {{ padding: .8em 2em; font-size: 1.1em; border: 0; border-radius: .4em;
  background: #2e7d32; color: white; }}
</style>
</head>
<body>
<div id="bar"><b>Scopa</b><span class="who">as {name} · <a href="/name">change name</a></span>
<button type="button" id="keyboard" aria-pressed="false" title="show the keyboard (for chat)">keyboard</button></div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="" data-font-size="16"></div>
<div id="ended"><div>The game client closed.</div><button type="button" id="again">Play again</button></div>
<script>
(function () {{
  var term = document.getElementById("terminal");
  var wanted = parseInt(new URLSearchParams(location.search).get("fontsize") || "0", 10);
  if (!(wanted >= 6 && wanted <= 40)) {{
    // The short side decides, so the phone may turn: about 24 rows lying, 40+ columns standing.
    var shortSide = Math.min(window.innerWidth, window.innerHeight);
    wanted = Math.max(10, Math.min(16, Math.floor((shortSide - {bar}) / 26)));
  }}
  term.dataset.fontSize = String(wanted);
  term.dataset.sessionWebsocketUrl = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  var keyboard = document.getElementById("keyboard");
  function textarea() {{ return term.querySelector("textarea"); }}
  function setKeyboard(on) {{
    var box = textarea();
    keyboard.setAttribute("aria-pressed", on ? "true" : "false");
    if (!box) return;
    box.setAttribute("inputmode", on ? "text" : "none");
    box.blur();
    box.focus();  // the app gets its focus (and shows its keys) without the on-screen keyboard
  }}
  keyboard.addEventListener("click", function () {{
    setKeyboard(keyboard.getAttribute("aria-pressed") !== "true");
  }});
  // Once connected ("-loaded"), focus the terminal: the app starts blurred and shows its keys
  // only when focused; the on-screen keyboard stays away.
  new MutationObserver(function (changes, observer) {{
    if (document.body.classList.contains("-loaded")) {{ observer.disconnect(); setKeyboard(false); }}
  }}).observe(document.body, {{ attributes: true, attributeFilter: ["class"] }});
  document.getElementById("again").addEventListener("click", function () {{ location.reload(); }});
  // A swipe scrolls what is under the finger: the app reads the mouse, so the terminal
  // ignores touch moves; each line's worth of finger travel becomes a wheel turn.
  var lastY = null;
  term.addEventListener("touchstart", function (e) {{
    lastY = e.touches.length === 1 ? e.touches[0].clientY : null;
  }}, {{ passive: true }});
  term.addEventListener("touchmove", function (e) {{
    if (lastY === null || e.touches.length !== 1) return;
    var touch = e.touches[0], line = wanted * 1.2, under = document.elementFromPoint(touch.clientX, touch.clientY);
    e.preventDefault();
    while (under && Math.abs(touch.clientY - lastY) >= line) {{
      var up = touch.clientY < lastY;  // the finger goes up: the page goes on downwards
      lastY += up ? -line : line;
      under.dispatchEvent(new WheelEvent("wheel", {{ deltaY: up ? 100 : -100, deltaMode: 0, bubbles: true,
        cancelable: true, clientX: touch.clientX, clientY: touch.clientY }}));
    }}
  }}, {{ passive: false }});
  term.addEventListener("touchend", function () {{ lastY = null; }}, {{ passive: true }});
}})();
</script>
</body>
</html>
"""


def name_page(name: str = "", error: str = "", title: str = "Scopa") -> str:
    """The form that asks for (or changes) the name shown at the tables."""
    return NAME_PAGE.format(title=escape(title), font=FONT, name=escape(name, quote=True), error=escape(error),
                            pattern=escape(NAME_PATTERN, quote=True))


def game_page(name: str, title: str = "Scopa") -> str:
    """The page with the terminal (textual-serve's script connects it to ``/ws``)."""
    return GAME_PAGE.format(title=escape(title), font=FONT, name=escape(name), bar=BAR_HEIGHT)
