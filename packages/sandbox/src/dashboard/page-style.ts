/** The dashboard's style sheet, inlined in the page. Light and dark colour schemes; no web fonts. */
export const DASHBOARD_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f5f6f8; --panel: #ffffff; --text: #1b1f24; --muted: #5b6472; --line: #d9dde3; --head: #eef0f3;
  --accent: #1f5fbf; --accent-text: #ffffff; --focus: #ffb000;
  --ok-bg: #e3f4e8; --ok: #146c2e; --fail-bg: #fde7e7; --fail: #a4161a; --warn-bg: #fff3d6; --warn: #7a4b00;
  --pending-bg: #e6eefb; --pending: #1d4e9e; --neutral-bg: #eceef1; --neutral: #3d4450;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #121417; --panel: #1b1e23; --text: #e7e9ec; --muted: #9aa3ae; --line: #30353d; --head: #23272d;
    --accent: #6ea2f5; --accent-text: #0b1526;
    --ok-bg: #15331f; --ok: #7fd69a; --fail-bg: #3b1618; --fail: #ff9a9a; --warn-bg: #3a2c0c; --warn: #ffd27a;
    --pending-bg: #172a4a; --pending: #9cc0ff; --neutral-bg: #2a2e35; --neutral: #c5cbd3;
  }
}
* { box-sizing: border-box; }
html { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; background: var(--bg); color: var(--text); }
body { margin: 0; }
h1, h2, h3, h4 { margin: 0; line-height: 1.2; }
h1 { font-size: 1.25rem; }
h2 { font-size: 1rem; margin-bottom: .6rem; }
.subheading { font-size: .9rem; margin: .9rem 0 .4rem; }
h4 { font-size: .85rem; margin: .9rem 0 .35rem; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--panel); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.mono { font-family: var(--mono); font-size: .92em; }
.muted { color: var(--muted); font-size: .9em; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }

.top { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 2rem; padding: .8rem 1.25rem; background: var(--panel); border-bottom: 1px solid var(--line); }
.brand .sub { margin: .1rem 0 0; color: var(--muted); font-size: .85rem; }
.meta { display: flex; flex-wrap: wrap; gap: .25rem 1.75rem; margin: 0; }
.meta div { display: flex; flex-direction: column; }
.meta dt { font-size: .72rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.meta dd { margin: 0; font-variant-numeric: tabular-nums; }
.connection { margin-left: auto; padding: .25rem .7rem; border-radius: 999px; font-size: .85rem; font-weight: 600; background: var(--neutral-bg); color: var(--neutral); }
.connection::before { content: ""; display: inline-block; width: .55rem; height: .55rem; border-radius: 50%; margin-right: .45rem; background: currentColor; vertical-align: .05rem; }
.connection[data-state="live"] { background: var(--ok-bg); color: var(--ok); }
.connection[data-state="reconnecting"], .connection[data-state="unauthorized"] { background: var(--warn-bg); color: var(--warn); }
#token-form { display: flex; gap: .5rem; align-items: end; flex-basis: 100%; }
#token-form[hidden] { display: none; }

.layout { display: grid; grid-template-columns: minmax(0, 1fr) clamp(19rem, 24vw, 22rem); gap: 1.25rem; padding: 1.25rem; align-items: start; }
@media (max-width: 1100px) { .layout { grid-template-columns: minmax(0, 1fr); } }
main { min-width: 0; }
aside { display: flex; flex-direction: column; gap: 1rem; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; }

.toolbar { display: flex; flex-wrap: wrap; align-items: end; justify-content: space-between; gap: .75rem; margin-bottom: .5rem; }
[role="tablist"] { display: flex; gap: .25rem; flex-wrap: wrap; }
[role="tab"] { font: inherit; font-weight: 600; border: 1px solid var(--line); background: var(--panel); color: var(--muted); padding: .45rem .85rem; border-radius: 6px; cursor: pointer; }
[role="tab"][aria-selected="true"] { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
.count { display: inline-block; min-width: 1.6em; margin-left: .35rem; padding: 0 .35em; border-radius: 999px; background: var(--neutral-bg); color: var(--neutral); font-size: .8em; text-align: center; }
[aria-selected="true"] .count { background: rgba(255, 255, 255, .25); color: inherit; }
.filter { display: flex; flex-direction: row; align-items: center; gap: .5rem; }
.filter input { width: 16rem; max-width: 60vw; }
.live { min-height: 1.4em; margin: 0 0 .5rem; color: var(--muted); font-size: .88rem; }
[role="tabpanel"] { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; overflow-x: auto; }
[role="tabpanel"][hidden] { display: none; }

table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding: 0 0 .35rem; }
th, td { padding: .45rem .6rem; text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); }
thead th { position: sticky; top: 0; background: var(--head); font-size: .78rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); white-space: nowrap; }
tbody th { font-weight: 600; white-space: nowrap; }
td time, th time { white-space: nowrap; }
table.grid > tbody > tr:hover > * { background: color-mix(in srgb, var(--accent) 5%, transparent); }
tr.empty td { color: var(--muted); padding: 1.5rem .75rem; text-align: center; }
.content-cell { min-width: 12rem; max-width: 26rem; overflow-wrap: anywhere; white-space: pre-wrap; }
.url-cell { min-width: 9rem; max-width: 13rem; overflow-wrap: anywhere; }
.narrow { width: 2rem; padding-right: 0; }
tr.detail > td { background: var(--bg); padding: .75rem 1rem 1rem; }
.detail-grid { display: grid; grid-template-columns: minmax(14rem, 1fr) minmax(18rem, 1.4fr); gap: 1.25rem; }
@media (max-width: 900px) { .detail-grid { grid-template-columns: 1fr; } }
table.inner { background: var(--panel); border: 1px solid var(--line); }
table.inner th, table.inner td { padding: .3rem .5rem; }
table.compact th, table.compact td { padding: .3rem .4rem; white-space: normal; overflow-wrap: anywhere; }
.card { min-width: 0; }
.card table { margin-top: .9rem; }
.card tbody th { font-weight: 400; }
.type-cell { white-space: nowrap; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .9rem; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.timeline { margin: 0; padding-left: 1.2rem; }
.timeline li { margin: .15rem 0; }
.timeline time { font-family: var(--mono); font-size: .88em; color: var(--muted); }
pre.payload { margin: .25rem 0 0; padding: .5rem .6rem; max-height: 14rem; overflow: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; font: .85em/1.4 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; }
details summary { cursor: pointer; color: var(--accent); }

.toggle { font: inherit; font-size: 1rem; line-height: 1; width: 1.9rem; height: 1.9rem; padding: 0; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); color: var(--text); cursor: pointer; }
.toggle span { display: inline-block; transition: transform .12s; }
.toggle[aria-expanded="true"] span { transform: rotate(90deg); }

.badge { display: inline-block; padding: .1rem .5rem; border-radius: 4px; font-size: .85em; font-weight: 600; white-space: nowrap; }
.badge.wrap { white-space: normal; max-width: 18rem; }
.status-cell { min-width: 11rem; }
td .badge + .badge, td .badge { margin-right: .25rem; }
.tone-ok { background: var(--ok-bg); color: var(--ok); }
.tone-fail { background: var(--fail-bg); color: var(--fail); }
.tone-warn { background: var(--warn-bg); color: var(--warn); }
.tone-pending { background: var(--pending-bg); color: var(--pending); }
.tone-neutral { background: var(--neutral-bg); color: var(--neutral); }
.tone-text-fail { color: var(--fail); }

form { display: flex; flex-direction: column; gap: .6rem; }
label { display: flex; flex-direction: column; gap: .2rem; font-weight: 600; font-size: .85rem; }
label[hidden] { display: none; }
label.check { flex-direction: row; align-items: center; gap: .4rem; font-weight: 500; }
fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; }
legend { font-weight: 600; font-size: .85rem; padding: 0; margin-bottom: .2rem; float: left; width: 100%; }
fieldset label { flex-direction: row; align-items: center; gap: .3rem; font-weight: 500; }
.row2 { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: .6rem; align-items: end; }
.row3 { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: .6rem; align-items: end; }
input, select, textarea { font: inherit; font-weight: 400; color: var(--text); background: var(--panel); border: 1px solid var(--line); border-radius: 5px; padding: .35rem .5rem; min-width: 0; width: 100%; }
input[type="checkbox"], input[type="radio"] { width: auto; }
input[type="checkbox"], input[type="radio"] { accent-color: var(--accent); }
textarea { resize: vertical; font-family: var(--mono); }
input:disabled, select:disabled { opacity: .55; }
button { font: inherit; font-weight: 600; border-radius: 5px; padding: .45rem .9rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-text); cursor: pointer; }
button.secondary { background: var(--panel); color: var(--accent); }
button.danger { background: var(--fail); border-color: var(--fail); color: #fff; }
button.link { background: none; border: 0; padding: 0; color: var(--accent); text-decoration: underline; }
.buttons { display: flex; gap: .5rem; flex-wrap: wrap; }
.form-status { margin: 0; min-height: 1.2em; font-size: .85rem; overflow-wrap: anywhere; }
.form-status.tone-ok, .form-status.tone-fail, .form-status.tone-pending { padding: .3rem .5rem; border-radius: 4px; }
.hint { margin: 0 0 .6rem; color: var(--muted); font-size: .85rem; }
.counter { margin: -.3rem 0 .6rem; font-size: .85rem; font-variant-numeric: tabular-nums; }
.counter p { margin: 0 0 .2rem; }
.counter .forced { padding: .2rem .4rem; border-radius: 4px; background: var(--warn-bg); color: var(--warn); overflow-wrap: anywhere; }
`;
