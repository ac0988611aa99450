/**
 * The static body of the dashboard page. It holds no data: the script fills the tables and the
 * option lists from the admin API and the embedded configuration.
 */
export const DASHBOARD_MARKUP = `
<a class="skip" href="#main">Skip to the activity</a>
<header class="top">
  <div class="brand">
    <h1>smsv4 sandbox</h1>
    <p class="sub">Global SMS API v4 and Invoke Service emulator</p>
  </div>
  <dl class="meta">
    <div><dt>API base URL</dt><dd id="api-base" class="mono" data-testid="api-base"></dd></div>
    <div><dt>Simulated clock</dt><dd><time id="clock" data-testid="clock">—</time> <span id="time-scale" class="muted" data-testid="time-scale"></span></dd></div>
    <div><dt>Sends</dt><dd id="metric-sends" data-testid="metric-sends">—</dd></div>
    <div><dt>Parts final</dt><dd id="metric-parts" data-testid="metric-parts">—</dd></div>
    <div><dt>Callback attempts</dt><dd id="metric-callbacks" data-testid="metric-callbacks">—</dd></div>
    <div><dt>Metrics</dt><dd><a id="metrics-link" href="/__sandbox/metrics" aria-controls="metrics-panel" aria-expanded="false" data-testid="metrics-link">Prometheus</a></dd></div>
  </dl>
  <span id="connection" class="connection" data-state="connecting" role="status" data-testid="connection">Connecting…</span>
  <section id="metrics-panel" class="metrics-panel" hidden aria-label="Prometheus metrics" data-testid="metrics-panel">
    <pre id="metrics-text" class="payload" data-testid="metrics-text"></pre>
  </section>
  <form id="token-form" hidden data-testid="token-form">
    <label>Admin token <input name="token" type="password" autocomplete="off" required></label>
    <button type="submit">Use token</button>
  </form>
</header>

<div class="layout">
  <main id="main">
    <div class="toolbar">
      <div role="tablist" aria-label="Activity">
        <button type="button" role="tab" id="tab-messages" aria-controls="panel-messages" aria-selected="true" data-testid="tab-messages">Messages<span class="count" id="count-messages">0</span></button>
        <button type="button" role="tab" id="tab-callbacks" aria-controls="panel-callbacks" aria-selected="false" tabindex="-1" data-testid="tab-callbacks">Callbacks<span class="count" id="count-callbacks">0</span></button>
        <button type="button" role="tab" id="tab-inbound" aria-controls="panel-inbound" aria-selected="false" tabindex="-1" data-testid="tab-inbound">Inbound<span class="count" id="count-inbound">0</span></button>
        <button type="button" role="tab" id="tab-invocations" aria-controls="panel-invocations" aria-selected="false" tabindex="-1" data-testid="tab-invocations">Invoke Service<span class="count" id="count-invocations">0</span></button>
      </div>
      <label class="filter">Filter <input id="filter" type="search" placeholder="ticket, number, text, code" autocomplete="off" data-testid="filter"></label>
    </div>
    <p id="live-status" class="live" aria-live="polite" aria-atomic="true" data-testid="live-status"></p>

    <section id="panel-messages" role="tabpanel" aria-labelledby="tab-messages" tabindex="0">
      <table class="grid" data-testid="messages-table">
        <caption class="visually-hidden">Messages sent to the sandbox, newest first. Expand a row for its parts and timeline.</caption>
        <thead><tr>
          <th scope="col"><span class="visually-hidden">Details</span></th>
          <th scope="col">Submitted</th><th scope="col">Ticket</th><th scope="col">Destination</th><th scope="col">Content</th>
          <th scope="col">Type</th><th scope="col" class="num">Parts</th><th scope="col">Status</th>
        </tr></thead>
        <tbody id="messages-body" data-testid="messages-body"></tbody>
      </table>
    </section>

    <section id="panel-callbacks" role="tabpanel" aria-labelledby="tab-callbacks" tabindex="0" hidden>
      <table class="grid" data-testid="callbacks-table">
        <caption class="visually-hidden">Receipt and inbound deliveries to your receiver, newest first</caption>
        <thead><tr>
          <th scope="col">At</th><th scope="col">Kind</th><th scope="col">Ticket</th><th scope="col" class="num">Attempt</th>
          <th scope="col">Outcome</th><th scope="col" class="num">HTTP</th><th scope="col" class="num">Took</th><th scope="col">URL</th><th scope="col">Receiver's answer</th>
        </tr></thead>
        <tbody id="callbacks-body" data-testid="callbacks-body"></tbody>
      </table>
    </section>

    <section id="panel-inbound" role="tabpanel" aria-labelledby="tab-inbound" tabindex="0" hidden>
      <table class="grid" data-testid="inbound-table">
        <caption class="visually-hidden">Inbound messages injected into the sandbox, newest first</caption>
        <thead><tr>
          <th scope="col">Submitted</th><th scope="col">Ticket</th><th scope="col">From</th><th scope="col">To</th>
          <th scope="col">Type</th><th scope="col">Content</th><th scope="col">URL</th><th scope="col">Status</th>
        </tr></thead>
        <tbody id="inbound-body" data-testid="inbound-body"></tbody>
      </table>
    </section>

    <section id="panel-invocations" role="tabpanel" aria-labelledby="tab-invocations" tabindex="0" hidden>
      <table class="grid" data-testid="invocations-table">
        <caption class="visually-hidden">Invoke Service calls, newest first</caption>
        <thead><tr>
          <th scope="col">At</th><th scope="col">Request ID</th><th scope="col">Account</th><th scope="col">Service ID</th>
          <th scope="col">Phone number</th><th scope="col">Variables</th><th scope="col">Outcome</th>
        </tr></thead>
        <tbody id="invocations-body" data-testid="invocations-body"></tbody>
      </table>
    </section>
  </main>

  <aside aria-label="Controls">
    <section class="card" aria-labelledby="compose-heading">
      <h2 id="compose-heading">Send a message</h2>
      <form id="compose-form" novalidate data-testid="compose-form">
        <div class="row2">
          <label>To <input name="destination" inputmode="numeric" autocomplete="off" placeholder="14155550100" data-testid="compose-to"></label>
          <label>Account <select id="compose-account" name="accountId" data-testid="compose-account"><option value="">Default account</option></select></label>
        </div>
        <label for="compose-text">Text</label>
        <textarea id="compose-text" name="content" rows="4" aria-describedby="compose-count" data-testid="compose-text"></textarea>
        <div id="compose-count" class="counter" data-testid="compose-count">
          <p><span id="compose-encoding" data-testid="compose-encoding"></span> · <span id="compose-parts" data-testid="compose-parts"></span> · <span id="compose-left" data-testid="compose-left"></span></p>
          <p id="compose-forced" class="forced" data-testid="compose-forced" hidden></p>
          <p id="compose-substitutes" class="hint" data-testid="compose-substitutes" hidden></p>
        </div>
        <label class="check"><input type="checkbox" name="segment" checked data-testid="compose-segment"> Send long text in parts</label>
        <label>Receipts to URL <input name="url" type="url" autocomplete="off" placeholder="none" data-testid="compose-url"></label>
        <div class="buttons"><button type="submit" data-testid="compose-submit">Send message</button></div>
        <p id="compose-status" class="form-status" role="status" aria-live="polite" data-testid="compose-result"></p>
      </form>
    </section>

    <section class="card" aria-labelledby="inbound-heading">
      <h2 id="inbound-heading">Inject an inbound message</h2>
      <form id="inbound-form" novalidate data-testid="inbound-form">
        <div class="row2">
          <label>From (handset) <input name="from" inputmode="numeric" autocomplete="off" placeholder="447700900123" data-testid="inbound-from"></label>
          <label>To (your number) <input name="to" autocomplete="off" placeholder="12345" data-testid="inbound-to"></label>
        </div>
        <label>Account <select id="inbound-account" name="accountId" data-testid="inbound-account"><option value="">Default account</option></select></label>
        <fieldset>
          <legend>Content</legend>
          <label><input type="radio" name="mode" value="text" checked data-testid="inbound-mode-text"> Text</label>
          <label><input type="radio" name="mode" value="hex" data-testid="inbound-mode-hex"> Hex</label>
          <label><input type="checkbox" id="inbound-binary" name="binary" data-testid="inbound-binary"> Binary octets</label>
          <label><input type="checkbox" id="inbound-udh" name="udh" data-testid="inbound-udh"> Starts with a UDH</label>
        </fieldset>
        <label id="inbound-content-label" for="inbound-content">Text</label>
        <textarea id="inbound-content" name="content" rows="3" data-testid="inbound-content-input"></textarea>
        <div class="row2">
          <label>Charset <select id="inbound-charset" name="charset" data-testid="inbound-charset"><option value="">Automatic</option></select></label>
          <label>Format <select name="format" data-testid="inbound-format"><option value="">Default</option><option value="json">JSON</option><option value="xml">XML</option></select></label>
        </div>
        <div class="row2">
          <label class="check"><input type="checkbox" name="multipart" checked data-testid="inbound-multipart"> Split long text into parts</label>
          <label>Reference <select id="inbound-reference" name="referenceBits" data-testid="inbound-reference"><option value="8">8-bit</option><option value="16">16-bit</option></select></label>
        </div>
        <label>Deliver to URL <input name="url" type="url" autocomplete="off" placeholder="the account's inbound URL" data-testid="inbound-url"></label>
        <div class="buttons"><button type="submit" data-testid="inbound-submit">Inject message</button></div>
        <p id="inbound-status" class="form-status" role="status" aria-live="polite" data-testid="inbound-result"></p>
      </form>
    </section>

    <section class="card" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Callback timestamps</h2>
      <form id="settings-form" novalidate data-testid="settings-form">
        <label>Time zone of deliveryDate and submittedDate
          <input id="settings-offset" name="callbackTimestampOffset" list="offset-choices" autocomplete="off" spellcheck="false" aria-describedby="settings-hint" data-testid="settings-offset">
        </label>
        <datalist id="offset-choices">
          <option value="Z">UTC (the spec's form)</option>
          <option value="-05:00">US Central daylight / Eastern standard</option>
          <option value="+01:00">Central European</option>
          <option value="+05:30">India</option>
          <option value="+14:00">Line Islands (the largest offset)</option>
          <option value="-12:00">Baker Island (the smallest in use)</option>
        </datalist>
        <p id="settings-hint" class="hint">Z, or an offset ±hh:mm up to ±14:00. The real service also writes offsets (2015-08-29T15:10:03.029-05:00): test your receiver against them. Applies to the callbacks made from now on.</p>
        <p class="hint">Now: <span id="settings-current" class="mono" data-testid="settings-current">Z</span></p>
        <div class="buttons"><button type="submit" data-testid="settings-submit">Apply</button></div>
        <p id="settings-status" class="form-status" role="status" aria-live="polite" data-testid="settings-result"></p>
      </form>
    </section>

    <section class="card" aria-labelledby="scenario-heading">
      <h2 id="scenario-heading">Delivery scenarios</h2>
      <form id="scenario-form" novalidate data-testid="scenario-form">
        <div class="row2">
          <label>Destination <input name="destination" value="*" autocomplete="off" aria-describedby="scenario-destination-hint" data-testid="scenario-destination"></label>
          <label>Outcome <select name="kind" data-testid="scenario-kind">
            <option value="delivered">Delivered</option>
            <option value="delayed">Delivered late</option>
            <option value="expired">Expired</option>
            <option value="fail-part">One part fails</option>
            <option value="no-receipt">No receipt</option>
            <option value="rejected">Rejected</option>
          </select></label>
        </div>
        <p id="scenario-destination-hint" class="hint">A phone number, or * for every destination without its own scenario. Delays are simulated milliseconds.</p>
        <div class="row3">
          <label id="scenario-delay-field">Delay (ms) <input name="delayMs" inputmode="numeric" placeholder="1000" data-testid="scenario-delay"></label>
          <label id="scenario-segment-field">Part <input name="segmentNumber" inputmode="numeric" placeholder="1" data-testid="scenario-segment"></label>
          <label id="scenario-code-field">Code <input name="code" inputmode="numeric" list="failure-codes" placeholder="default" data-testid="scenario-code"></label>
        </div>
        <datalist id="failure-codes"></datalist>
        <div class="buttons"><button type="submit" data-testid="scenario-submit">Set scenario</button></div>
        <p id="scenario-status" class="form-status" role="status" aria-live="polite" data-testid="scenario-result"></p>
      </form>
      <table class="grid compact" data-testid="scenarios-table">
        <caption>Active scenarios</caption>
        <thead><tr><th scope="col">Destination</th><th scope="col">Scenario</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody id="scenarios-body" data-testid="scenarios-body"></tbody>
      </table>
    </section>

    <section class="card" aria-labelledby="fault-heading">
      <h2 id="fault-heading">Faults</h2>
      <form id="fault-form" novalidate data-testid="fault-form">
        <div class="row2">
          <label>Operation <select name="operation" data-testid="fault-operation">
            <option value="send">Send</option><option value="status">Status</option><option value="lookup">Lookup</option><option value="invokeService">Invoke Service</option>
          </select></label>
          <label>Next calls <input name="count" value="1" inputmode="numeric" data-testid="fault-count"></label>
        </div>
        <label>Fault <select id="fault-kind" name="kind" data-testid="fault-kind">
          <option value="1010">1010</option><option value="1000">1000</option><option value="latency">Latency</option><option value="drop-after-accept">Drop the connection after processing</option>
        </select></label>
        <label id="fault-latency-field">Latency (real ms) <input name="latencyMs" value="2000" inputmode="numeric" data-testid="fault-latency"></label>
        <div class="buttons">
          <button type="submit" data-testid="fault-submit">Arm fault</button>
          <button type="button" id="fault-clear" class="secondary" data-testid="fault-clear">Clear faults</button>
        </div>
        <p id="fault-status" class="form-status" role="status" aria-live="polite" data-testid="fault-result"></p>
      </form>
    </section>

    <section class="card" aria-labelledby="accounts-heading">
      <h2 id="accounts-heading">Accounts</h2>
      <table class="grid compact" data-testid="accounts-table">
        <caption class="visually-hidden">Accounts the sandbox knows</caption>
        <thead><tr><th scope="col">Account ID</th><th scope="col">Kind</th><th scope="col">Callback auth</th></tr></thead>
        <tbody id="accounts-body" data-testid="accounts-body"></tbody>
      </table>
      <form id="credentials-form" novalidate data-testid="credentials-form">
        <h3 class="subheading">Basic credentials of callbacks</h3>
        <label>Account <select id="credentials-account" name="accountId" data-testid="credentials-account"></select></label>
        <div class="row2">
          <label>User name <input name="username" autocomplete="off" spellcheck="false" data-testid="credentials-username"></label>
          <label>Password <input name="password" type="password" autocomplete="new-password" data-testid="credentials-password"></label>
        </div>
        <p class="hint">Sent as Authorization: Basic on every attempt of the account's receipts and inbound messages whose URL carries no credentials, retries included. The password is never shown back.</p>
        <div class="buttons">
          <button type="submit" data-testid="credentials-submit">Save credentials</button>
          <button type="button" id="credentials-remove" class="secondary" data-testid="credentials-remove">Remove</button>
        </div>
        <p id="credentials-status" class="form-status" role="status" aria-live="polite" data-testid="credentials-result"></p>
      </form>
    </section>

    <section class="card" aria-labelledby="reset-heading">
      <h2 id="reset-heading">Reset</h2>
      <p class="hint">Clears messages, callbacks, inbound messages, invocations, scenarios, faults and counters.</p>
      <div class="buttons"><button type="button" id="reset" class="danger" data-testid="reset">Reset sandbox</button></div>
      <p id="reset-status" class="form-status" role="status" aria-live="polite" data-testid="reset-result"></p>
    </section>
  </aside>
</div>
`;
