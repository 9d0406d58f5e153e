//! The animated replay of a game: one self-contained HTML page ([`replay_html`]) with the
//! SVG board after every turn and a turn slider.

use super::svg::{escape, svg_legend, svg_open, svg_state, svg_tile, Layout};
use carcassonne::game::Game;
use std::fmt::Write as _;

/// An animated replay of one game as a single self-contained HTML page (no external
/// file, script or font): the board after every turn, a slider to choose the turn,
/// buttons to step and to play, the scores and the legend.
///
/// `states[k]` is the game after its first `k` turns (`states[0]`: the start tile
/// only), all of one game, so that every state's tiles are the first tiles of the last
/// state's board. The page draws every tile of the last state once and shows, for the
/// turn chosen, the tiles placed by then, the figures, the dragon, the fairy and the
/// scores of that turn (the tiles placed in it framed). The element `#turn-count` shows
/// the number of turns, `#turn-shown` the turn shown and `#tiles-shown` its tiles; the
/// page opens on the last turn, or on turn `k` with the address fragment `#turn=k`.
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::render;
/// let mut game = Game::new(GameConfig::new(2)).unwrap();
/// let mut states = vec![game.clone()];
/// while states.len() < 4 {
///     let first = game.legal_actions()[0];
///     game.apply(first).unwrap();
///     // Turns ended so far (in sampled chance, the next turn opens at once).
///     let done = game.turns().len() - usize::from(game.turn_in_progress());
///     if done == states.len() {
///         states.push(game.clone());
///     }
/// }
/// let html = render::replay_html("three turns", &states);
/// assert!(html.starts_with("<!DOCTYPE html>"));
/// assert_eq!(html.matches(r#"<g class="frame""#).count(), states.len());
/// assert!(html.contains(r#"data-turns="3""#));
/// ```
pub fn replay_html(title: &str, states: &[Game]) -> String {
    let Some(last) = states.last() else {
        return format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title></head><body><p>{0}: no game to show</p></body></html>\n",
            escape(title)
        );
    };
    let board = last.board();
    let layout = Layout::new(board.bounds(), last.num_players(), true);
    let mut svg = String::with_capacity(16384 + board.len() * 2048 + states.len() * 4096);
    svg_open(&mut svg, &layout, title);
    for (i, p) in board.placements().iter().enumerate() {
        svg_tile(&mut svg, p, i, layout.origin(p.pos));
    }
    let mut before = 1;
    for (turn, state) in states.iter().enumerate() {
        let placed = state.board().len().min(board.len());
        let _ = writeln!(
            svg,
            r#"<g class="frame" data-turn="{turn}" data-tiles="{placed}">"#
        );
        svg_state(&mut svg, state, &layout, before.min(placed)..placed);
        svg.push_str("</g>\n");
        before = placed;
    }
    svg_legend(&mut svg, &layout, true);
    svg.push_str("</svg>\n");
    let turns = states.len() - 1;
    let mut out = String::with_capacity(svg.len() + 4096);
    let _ = write!(
        out,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; background: #f7f5ee; color: #222222; margin: 16px; }}
h1 {{ font-size: 18px; margin: 0 0 8px 0; }}
#controls {{ display: flex; align-items: center; gap: 10px; margin-bottom: 8px; }}
#turn {{ width: min(55vw, 600px); }}
#controls span {{ white-space: nowrap; }}
svg {{ max-width: 100%; height: auto; }}
button {{ font-size: 14px; min-width: 4em; }}
g.frame {{ display: none; }}
g.frame.shown {{ display: inline; }}
g.tile.hidden {{ display: none; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div id="controls" data-turns="{turns}">
<button id="back" type="button" title="previous turn">&#9664;</button>
<button id="play" type="button">Play</button>
<button id="next" type="button" title="next turn">&#9654;</button>
<input id="turn" type="range" min="0" max="{turns}" step="1" value="{turns}" aria-label="turn">
<span>turn <span id="turn-shown"></span> of <span id="turn-count"></span>, <span id="tiles-shown"></span> tiles</span>
</div>
{svg}<script>
(function () {{
  "use strict";
  var frames = Array.prototype.slice.call(document.querySelectorAll("g.frame"));
  var tiles = Array.prototype.slice.call(document.querySelectorAll("g.tile"));
  var slider = document.getElementById("turn");
  var play = document.getElementById("play");
  var last = frames.length - 1;
  var timer = null;
  document.getElementById("turn-count").textContent = String(last);
  slider.max = String(last);
  function show(k) {{
    k = Math.max(0, Math.min(last, Math.round(Number(k)) || 0));
    frames.forEach(function (f, i) {{ f.classList.toggle("shown", i === k); }});
    var placed = Number(frames[k].getAttribute("data-tiles"));
    tiles.forEach(function (t) {{
      t.classList.toggle("hidden", Number(t.getAttribute("data-order")) >= placed);
    }});
    slider.value = String(k);
    document.getElementById("turn-shown").textContent = String(k);
    document.getElementById("tiles-shown").textContent = String(placed);
    return k;
  }}
  function stop() {{
    if (timer !== null) {{ clearInterval(timer); timer = null; }}
    play.textContent = "Play";
  }}
  slider.addEventListener("input", function () {{ stop(); show(slider.value); }});
  document.getElementById("back").addEventListener("click", function () {{ stop(); show(Number(slider.value) - 1); }});
  document.getElementById("next").addEventListener("click", function () {{ stop(); show(Number(slider.value) + 1); }});
  play.addEventListener("click", function () {{
    if (timer !== null) {{ stop(); return; }}
    if (Number(slider.value) >= last) {{ show(0); }}
    play.textContent = "Pause";
    timer = setInterval(function () {{
      if (show(Number(slider.value) + 1) >= last) {{ stop(); }}
    }}, 500);
  }});
  document.addEventListener("keydown", function (e) {{
    if (e.key === "ArrowLeft") {{ stop(); show(Number(slider.value) - 1); }}
    if (e.key === "ArrowRight") {{ stop(); show(Number(slider.value) + 1); }}
  }});
  var wanted = /(?:^#|&)turn=(\d+)/.exec(window.location.hash);
  show(wanted ? Number(wanted[1]) : last);
}})();
</script>
</body>
</html>
"#,
        title = escape(title),
    );
    out
}

#[cfg(test)]
#[path = "../tests/unit/render/html.rs"]
mod tests;
