//! The animated replay of a game: one self-contained HTML page ([`replay_html`]) with the
//! SVG board after every turn, a turn slider, and beside the board a panel with the turn's
//! scores and the legend, laid out to fit a 1280×800 window.

use super::pieces::pieces_of;
use super::summary::{seat_name, summary, Summary};
use super::svg::{escape, icon, svg_board_state, svg_open, svg_tile, Icon, Layout};
use crate::sets;
use carcassonne::config::Figure;
use carcassonne::game::Game;
use std::fmt::Write as _;

/// The panel of one turn: its status line, the scores with the winners and what each set
/// in play shows beside a score (titles, prisoners) and under the scores (the sheep bag,
/// the City of Carcassonne's quarters).
fn turn_panel(out: &mut String, turn: usize, game: &Game, summary: &Summary) {
    let _ = writeln!(
        out,
        r#"<div class="turn-info" data-turn="{turn}"><p class="status">{}</p><ul class="scores">"#,
        escape(&summary.status)
    );
    for line in &summary.seats {
        let _ = write!(
            out,
            r#"<li class="score{}" data-seat="{}">{} {}: {}"#,
            if line.winner { " winner" } else { "" },
            line.seat,
            icon(Icon::Seat(line.seat, Figure::Follower)),
            seat_name(line.seat),
            line.score
        );
        if line.winner {
            out.push_str(" \u{2605} winner");
        }
        for set in sets::in_play(game) {
            set.html_beside_score(out, game, line.seat);
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n");
    for set in sets::in_play(game) {
        set.html_under_scores(out, game);
    }
    out.push_str("</div>\n");
}

/// An animated replay of one game as a single self-contained HTML page (no external
/// file, script or font): the board after every turn, a slider to choose the turn,
/// buttons to step and to play, and beside the board the turn's status, its scores
/// (with the King, the Robber Baron and the City of Carcassonne's quarters when they are
/// in play) and the legend of every piece the game has ([`pieces_of`]). The board
/// shrinks to the window, so that the controls, the scores and the legend stay in view
/// in a 1280×800 window.
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
/// assert_eq!(html.matches(r#"<div class="turn-info""#).count(), states.len());
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
    let layout = Layout::board_only(board.bounds());
    let mut svg = String::with_capacity(16384 + board.len() * 2048 + states.len() * 4096);
    svg_open(&mut svg, &layout, title);
    for (i, p) in board.placements().iter().enumerate() {
        svg_tile(&mut svg, p, i, layout.origin(p.pos));
    }
    let mut panels = String::with_capacity(states.len() * 1024);
    let mut before = 1;
    for (turn, state) in states.iter().enumerate() {
        let placed = state.board().len().min(board.len());
        let _ = writeln!(
            svg,
            r#"<g class="frame" data-turn="{turn}" data-tiles="{placed}">"#
        );
        svg_board_state(&mut svg, state, &layout, before.min(placed)..placed);
        svg.push_str("</g>\n");
        turn_panel(&mut panels, turn, state, &summary(state));
        before = placed;
    }
    svg.push_str("</svg>\n");
    let mut legend = String::from("<ul class=\"legend\">\n");
    for piece in pieces_of(last, true) {
        let _ = writeln!(
            legend,
            "<li>{} {}</li>",
            icon(Icon::Piece(piece.piece)),
            escape(piece.name)
        );
    }
    legend.push_str("</ul>\n");
    let turns = states.len() - 1;
    let mut out = String::with_capacity(svg.len() + panels.len() + 8192);
    let _ = write!(
        out,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
html, body {{ height: 100%; }}
body {{ font-family: sans-serif; font-size: 14px; background: #f7f5ee; color: #222222; margin: 0; display: flex; flex-direction: column; }}
header {{ flex: none; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 16px; padding: 8px 12px; }}
h1 {{ font-size: 17px; margin: 0; }}
#controls {{ display: flex; align-items: center; gap: 8px; }}
#turn {{ width: min(40vw, 420px); }}
#controls span {{ white-space: nowrap; }}
button {{ font-size: 14px; min-width: 3.5em; }}
main {{ flex: 1; min-height: 0; display: flex; gap: 12px; padding: 0 12px 12px 12px; }}
#board {{ flex: 1; min-width: 0; min-height: 0; }}
#board svg {{ display: block; width: 100%; height: 100%; }}
aside {{ flex: none; width: 320px; overflow-y: auto; }}
aside h2 {{ font-size: 14px; margin: 10px 0 4px 0; }}
aside ul {{ list-style: none; margin: 0; padding: 0; }}
aside li {{ margin: 2px 0; }}
.status {{ font-weight: bold; margin: 0 0 6px 0; }}
.scores li.winner {{ font-weight: bold; }}
.city ul {{ margin-left: 8px; }}
.sheep-bag {{ margin: 4px 0; }}
.bag-token {{ white-space: nowrap; }}
.legend {{ display: grid; grid-template-columns: 1fr 1fr; gap: 0 8px; font-size: 13px; }}
svg.icon {{ width: 16px; height: 16px; vertical-align: -3px; overflow: visible; }}
g.frame {{ display: none; }}
g.frame.shown {{ display: inline; }}
g.tile.hidden {{ display: none; }}
div.turn-info {{ display: none; }}
div.turn-info.shown {{ display: block; }}
@media (max-width: 800px) {{ main {{ flex-direction: column; }} aside {{ width: auto; }} #board {{ min-height: 60vh; }} }}
</style>
</head>
<body>
<header>
<h1>{title}</h1>
<div id="controls" data-turns="{turns}">
<button id="back" type="button" title="previous turn">&#9664;</button>
<button id="play" type="button">Play</button>
<button id="next" type="button" title="next turn">&#9654;</button>
<input id="turn" type="range" min="0" max="{turns}" step="1" value="{turns}" aria-label="turn">
<span>turn <span id="turn-shown"></span> of <span id="turn-count"></span>, <span id="tiles-shown"></span> tiles</span>
</div>
</header>
<main>
<div id="board">
{svg}</div>
<aside>
{panels}<h2>Legend</h2>
{legend}</aside>
</main>
<script>
(function () {{
  "use strict";
  var frames = Array.prototype.slice.call(document.querySelectorAll("g.frame"));
  var panels = Array.prototype.slice.call(document.querySelectorAll("div.turn-info"));
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
    panels.forEach(function (p, i) {{ p.classList.toggle("shown", i === k); }});
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
