import type { explain as Explain } from '@smsv4/core';
import type * as ClientHelpers from './client-helpers.js';
import type { SnapshotCounts, Tone } from './client-helpers.js';
import type { DashboardPageConfig } from './page-config.js';
import type {
  CallbackAttemptView as DashboardCallback,
  InboundView as DashboardInbound,
  InvocationView as DashboardInvocation,
  MessageView as DashboardMessage,
  SandboxSnapshot as DashboardSnapshot,
} from '../state/views.js';

/** The pure helpers the browser script receives (see `client-helpers.ts`). */
export type DashboardHelpers = typeof ClientHelpers;

/** Core's text engine as the page bundles it for the browser (see `estimator-script.ts`). */
export interface DashboardTextEngine {
  readonly explain: typeof Explain;
}

/**
 * The dashboard's browser program. The page embeds this function by source text and calls it
 * with the helpers and the configuration, so it may use only its parameters and browser globals
 * (no imports, no module state). It never writes data through `innerHTML`: every value goes in
 * through `textContent` or an attribute.
 */
export function dashboardClient(h: DashboardHelpers, config: DashboardPageConfig, text: DashboardTextEngine): void {
  const TOKEN_KEY = 'smsv4-sandbox-admin-token';
  const apiBase = h.adminApiBase(location.href);

  const state = {
    snapshot: undefined as DashboardSnapshot | undefined,
    counts: undefined as SnapshotCounts | undefined,
    expanded: new Set<string>(),
    openDetails: new Set<string>(),
    accountsKey: '',
    filter: '',
    token: '',
    loading: false,
    again: false,
    wake: undefined as (() => void) | undefined,
  };

  // ---------- DOM helpers ----------

  function byId<T extends HTMLElement>(id: string): T {
    const found = document.getElementById(id);
    if (found === null) throw new Error(`dashboard: missing #${id}`);
    return found as T;
  }

  type Child = Node | string | number | undefined | null | false;

  function el(tag: string, attrs: Record<string, string | number | boolean | undefined> = {}, ...children: Child[]): HTMLElement {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === false) continue;
      node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children) {
      if (child === undefined || child === null || child === false || child === '') continue;
      node.append(typeof child === 'object' ? child : String(child));
    }
    return node;
  }

  function badge(text: string, tone: Tone, testId?: string): HTMLElement {
    return el('span', { class: `badge tone-${tone}`, 'data-testid': testId }, text);
  }

  function timeEl(iso: string | undefined): HTMLElement | string {
    if (!iso) return '';
    return el('time', { datetime: iso, title: iso }, h.formatClock(iso));
  }

  function mono(text: string | undefined, max?: number): HTMLElement | string {
    if (text === undefined || text === '') return '';
    const shown = max === undefined ? text : h.truncate(text, max);
    return el('span', { class: 'mono', title: shown === text ? undefined : text }, shown);
  }

  function emptyRow(columns: number, text: string): HTMLElement {
    return el('tr', { class: 'empty' }, el('td', { colspan: columns }, text));
  }

  function table(caption: string, headers: string[], rows: HTMLElement[]): HTMLElement {
    return el(
      'table',
      { class: 'inner' },
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, ...headers.map((text) => el('th', { scope: 'col' }, text)))),
      el('tbody', {}, ...rows),
    );
  }

  /** A disclosure that stays open across re-renders (`key` identifies it). */
  function details(summary: string, body: string, key: string): HTMLElement {
    const node = el(
      'details',
      { open: state.openDetails.has(key) },
      el('summary', { 'data-focus-key': key }, summary),
      el('pre', { class: 'payload' }, body),
    ) as HTMLDetailsElement;
    node.addEventListener('toggle', () => {
      if (node.open) state.openDetails.add(key);
      else state.openDetails.delete(key);
    });
    return node;
  }

  function setStatus(target: HTMLElement, text: string, tone: Tone): void {
    target.textContent = text;
    target.className = `form-status tone-${tone}`;
  }

  function formValues(form: HTMLFormElement): Record<string, string> {
    const values: Record<string, string> = {};
    new FormData(form).forEach((value, name) => {
      if (typeof value === 'string') values[name] = value;
    });
    return values;
  }

  // ---------- admin API ----------

  function readToken(): void {
    const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
    try {
      if (match) {
        state.token = decodeURIComponent(match[1] ?? '');
        sessionStorage.setItem(TOKEN_KEY, state.token);
        history.replaceState(null, '', location.pathname + location.search);
      } else {
        state.token = sessionStorage.getItem(TOKEN_KEY) ?? '';
      }
    } catch {
      // Storage may be unavailable (privacy settings): the token then lasts for this page only.
    }
  }

  async function api(path: string, init: { method?: string; body?: unknown; accept?: string; signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: init.accept ?? 'application/json' };
    if (state.token) headers.Authorization = `Bearer ${state.token}`;
    let body: string | undefined;
    // The admin API takes writes in JSON only (a cross-site form cannot send it without a preflight).
    if (init.body !== undefined || init.method === 'POST' || init.method === 'PUT') headers['Content-Type'] = 'application/json';
    if (init.body !== undefined) body = JSON.stringify(init.body);
    const response = await fetch(apiBase + path, { method: init.method ?? 'GET', headers, body, cache: 'no-store', signal: init.signal });
    if (response.status === 401) showTokenForm(true);
    return response;
  }

  async function errorOf(response: Response): Promise<string> {
    try {
      const parsed = (await response.json()) as { error?: { code?: unknown; description?: unknown } };
      if (parsed.error && typeof parsed.error.description === 'string') return parsed.error.description;
    } catch {
      // Not JSON: fall through to the status line.
    }
    return `The sandbox answered HTTP ${response.status}.`;
  }

  // ---------- connection ----------

  const connection = byId('connection');
  function setConnection(kind: 'connecting' | 'live' | 'reconnecting' | 'unauthorized', text: string): void {
    connection.textContent = text;
    connection.dataset.state = kind;
  }

  // The metrics need the admin token like the API: the link fetches them with it and shows the
  // exposition here (a plain navigation would carry no token and get 401).
  const metricsLink = byId<HTMLAnchorElement>('metrics-link');
  const metricsPanel = byId('metrics-panel');
  const metricsText = byId('metrics-text');
  metricsLink.addEventListener('click', async (event) => {
    event.preventDefault();
    if (!metricsPanel.hidden) {
      metricsPanel.hidden = true;
      metricsLink.setAttribute('aria-expanded', 'false');
      return;
    }
    const response = await api('../metrics', { accept: 'text/plain' });
    metricsText.textContent = response.ok ? await response.text() : await errorOf(response);
    metricsPanel.hidden = false;
    metricsLink.setAttribute('aria-expanded', 'true');
  });

  const tokenForm = byId<HTMLFormElement>('token-form');
  function showTokenForm(show: boolean): void {
    tokenForm.hidden = !show;
    if (show) setConnection('unauthorized', 'Admin token required');
  }
  tokenForm.addEventListener('submit', (event) => {
    event.preventDefault();
    state.token = formValues(tokenForm).token ?? '';
    try {
      sessionStorage.setItem(TOKEN_KEY, state.token);
    } catch {
      // See readToken.
    }
    showTokenForm(false);
    void refreshAll();
    state.wake?.();
  });

  async function loadState(): Promise<void> {
    if (state.loading) {
      state.again = true;
      return;
    }
    state.loading = true;
    try {
      do {
        state.again = false;
        const response = await api('state');
        if (!response.ok) return;
        render((await response.json()) as DashboardSnapshot);
      } while (state.again);
    } catch {
      setConnection('reconnecting', 'Sandbox unreachable, retrying…');
    } finally {
      state.loading = false;
    }
  }

  async function loadScenarios(): Promise<void> {
    try {
      const response = await api('scenarios');
      if (response.ok) renderScenarios((await response.json()) as Record<string, unknown>);
    } catch {
      // The next change or reconnection loads them again.
    }
  }

  function refreshAll(): Promise<unknown> {
    return Promise.all([loadState(), loadScenarios()]);
  }

  function onChange(data: string): void {
    let kind = '';
    try {
      kind = String((JSON.parse(data) as { kind?: unknown }).kind ?? '');
    } catch {
      // A change without a readable kind still means "refetch".
    }
    if (kind === 'reset') {
      state.expanded.clear();
      state.openDetails.clear();
      void loadScenarios();
    }
    void loadState();
  }

  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        state.wake = undefined;
        resolve();
      }
      state.wake = done;
    });
  }

  async function listen(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const response = await api('events', { accept: 'text/event-stream', signal });
        if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
        failures = 0;
        setConnection('live', 'Live');
        void refreshAll(); // catch up on whatever changed while disconnected
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          const parsed = h.parseSseBuffer(buffer + chunk.value);
          buffer = parsed.rest;
          for (const event of parsed.events) if (event.event === 'change') onChange(event.data);
        }
      } catch {
        // Network error, stream cut or refused: reconnect below.
      }
      if (signal.aborted) return;
      failures += 1;
      if (tokenForm.hidden) setConnection('reconnecting', 'Reconnecting…');
      await pause(Math.min(10_000, 250 * 2 ** Math.min(failures, 6)));
    }
  }

  // ---------- rendering ----------

  const liveStatus = byId('live-status');
  const clock = byId<HTMLTimeElement>('clock');
  const timeScale = byId('time-scale');

  function render(snapshot: DashboardSnapshot): void {
    state.snapshot = snapshot;
    const focusKey = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.focusKey : undefined;

    clock.textContent = h.formatDateTime(snapshot.now);
    clock.dateTime = snapshot.now;
    timeScale.textContent = snapshot.timeScale === 1 ? 'real time' : `×${snapshot.timeScale} time`;
    const counts: SnapshotCounts = {
      messages: snapshot.messages.length,
      callbacks: snapshot.callbacks.length,
      inbound: snapshot.inbound.length,
      invocations: snapshot.invocations.length,
    };
    for (const [name, count] of Object.entries(counts)) byId(`count-${name}`).textContent = String(count);
    const summary = h.summarizeMetrics(snapshot.metrics);
    byId('metric-sends').textContent = summary.sends;
    byId('metric-parts').textContent = summary.parts;
    byId('metric-callbacks').textContent = summary.callbacks;
    const change = h.describeChanges(state.counts, counts);
    if (change) liveStatus.textContent = change;
    state.counts = counts;

    renderTables();
    renderAccounts(snapshot);
    renderSettings(snapshot);
    if (focusKey) {
      const again = Array.from(document.querySelectorAll<HTMLElement>('[data-focus-key]')).find((node) => node.dataset.focusKey === focusKey);
      again?.focus();
    }
  }

  function renderTables(): void {
    const snapshot = state.snapshot;
    if (!snapshot) return;
    renderMessages(snapshot.messages);
    renderCallbacks(snapshot.callbacks);
    renderInbound(snapshot.inbound);
    renderInvocations(snapshot.invocations);
  }

  function statusBadge(code: number | undefined, description: string | undefined, testId?: string): HTMLElement {
    const text = code === undefined ? 'no status yet' : `${code} ${description ?? ''}`.trim();
    const node = badge(text, h.deliveryTone(code, config.deliveryOutcomes), testId);
    node.classList.add('wrap');
    return node;
  }

  function renderMessages(messages: readonly DashboardMessage[]): void {
    const body = byId('messages-body');
    const rows: HTMLElement[] = [];
    messages.forEach((message) => {
      const fields = [message.ticketId, message.accountId, message.destination, message.source, message.content, message.summary.code, message.summary.description];
      if (!h.matchesFilter(fields, state.filter)) return;
      const open = state.expanded.has(message.ticketId);
      // Stable across re-renders (ticket IDs are letters, digits and hyphens).
      const detailId = `message-detail-${message.ticketId.replace(/[^A-Za-z0-9-]/g, '_')}`;
      const toggle = el(
        'button',
        {
          type: 'button',
          class: 'toggle',
          'aria-expanded': String(open),
          'aria-controls': detailId,
          'aria-label': `Details of message ${message.ticketId}`,
          'data-focus-key': `message:${message.ticketId}`,
          'data-testid': 'message-toggle',
        },
        el('span', { 'aria-hidden': 'true' }, '▸'),
      );
      // Details are built when first shown: hundreds of closed rows cost no parts tables.
      const cell = el('td', { colspan: 8 }, open && messageDetail(message));
      const detail = el('tr', { id: detailId, class: 'detail', hidden: !open, 'data-testid': 'message-detail' }, cell);
      toggle.addEventListener('click', () => {
        const opening = !state.expanded.has(message.ticketId);
        if (opening) state.expanded.add(message.ticketId);
        else state.expanded.delete(message.ticketId);
        if (opening && !cell.hasChildNodes()) cell.append(messageDetail(message));
        toggle.setAttribute('aria-expanded', String(opening));
        detail.hidden = !opening;
      });
      const parts = message.parts.length;
      rows.push(
        el(
          'tr',
          { 'data-testid': 'message-row', 'data-ticket-id': message.ticketId },
          el('td', { class: 'narrow' }, toggle),
          el('td', {}, timeEl(message.submittedAt)),
          el('th', { scope: 'row', class: 'mono' }, message.ticketId),
          el('td', {}, mono(message.destination), message.source ? el('div', { class: 'muted' }, 'from ', mono(message.source)) : ''),
          el('td', { class: 'content-cell', 'data-testid': 'message-content' }, h.truncate(message.content, 80)),
          el('td', { class: 'type-cell' }, message.type, el('div', { class: 'muted' }, `${message.encoding} · ${message.format.toUpperCase()}`)),
          el('td', { class: 'num' }, String(parts)),
          el('td', { class: 'status-cell' }, statusBadge(message.summary.code, message.summary.description, 'message-status')),
        ),
        detail,
      );
    });
    if (rows.length === 0) {
      rows.push(emptyRow(8, messages.length === 0 ? 'No messages yet. Send one with POST /sms/v4/mt and it appears here.' : 'No message matches the filter.'));
    }
    body.replaceChildren(...rows);
  }

  function messageDetail(message: DashboardMessage): HTMLElement {
    const facts: [string, Node | string][] = [
      ['Account', message.accountId],
      ['Format', message.format.toUpperCase()],
      ['Type', message.type],
      ['Encoding', message.encoding],
      ['mlc', message.mlc],
      ['Source', message.source ?? 'chosen by the service'],
      ['Receipt URL', message.receiptUrl ?? 'no receipt requested'],
    ];
    const list = el('dl', { class: 'facts' });
    for (const [term, value] of facts) list.append(el('dt', {}, term), el('dd', {}, value));
    const parts = message.parts.map((part) =>
      el(
        'tr',
        { 'data-testid': 'part-row' },
        el('th', { scope: 'row', class: 'num' }, `${part.segmentNumber}/${part.totalSegments}`),
        el('td', {}, statusBadge(part.code, part.description)),
        el('td', {}, timeEl(part.deliveryDate)),
        el('td', { class: 'content-cell' }, part.text ?? ''),
      ),
    );
    const timeline = el('ol', { class: 'timeline', 'aria-label': 'Timeline' });
    for (const entry of message.timeline) {
      timeline.append(el('li', {}, timeEl(entry.at), ' ', el('strong', {}, entry.event), entry.detail ? el('span', { class: 'muted' }, ` — ${entry.detail}`) : ''));
    }
    return el(
      'div',
      { class: 'detail-grid' },
      el('div', {}, list, el('h4', {}, 'Content as sent'), el('pre', { class: 'payload', 'data-testid': 'message-full-content' }, message.content)),
      el(
        'div',
        {},
        table('Parts', ['Part', 'Status', 'Delivered', 'Text'], parts.length ? parts : [emptyRow(4, 'No parts.')]),
        el('h4', {}, 'Timeline'),
        timeline,
      ),
    );
  }

  function renderCallbacks(callbacks: readonly DashboardCallback[]): void {
    const rows: HTMLElement[] = [];
    for (const attempt of callbacks) {
      if (!h.matchesFilter([attempt.ticketId, attempt.url, attempt.outcome, attempt.kind, attempt.httpStatus, attempt.error], state.filter)) continue;
      const outcome = el('td', {}, badge(attempt.outcome, h.outcomeTone(attempt.outcome), 'callback-outcome'));
      if (attempt.nextAttemptAt) outcome.append(el('div', { class: 'muted' }, 'next at ', timeEl(attempt.nextAttemptAt)));
      const answer = el('td', {});
      if (attempt.error) answer.append(el('div', { class: 'tone-text-fail' }, attempt.error));
      if (attempt.responseBody) answer.append(details(`Response (${attempt.responseBody.length} chars)`, attempt.responseBody, `response:${attempt.id}`));
      else if (!attempt.error && attempt.httpStatus !== undefined) answer.append(el('span', { class: 'muted' }, 'empty body'));
      rows.push(
        el(
          'tr',
          { 'data-testid': 'callback-row', 'data-ticket-id': attempt.ticketId },
          el('td', {}, timeEl(attempt.at)),
          el('td', {}, attempt.kind),
          el('th', { scope: 'row', class: 'mono' }, attempt.ticketId, attempt.segmentNumber !== undefined ? el('span', { class: 'muted' }, ` part ${attempt.segmentNumber}`) : ''),
          el('td', { class: 'num' }, String(attempt.attempt)),
          outcome,
          el('td', { class: 'num' }, attempt.httpStatus === undefined ? '—' : String(attempt.httpStatus)),
          el('td', { class: 'num' }, h.formatDuration(attempt.durationMs)),
          el('td', { class: 'url-cell' }, mono(attempt.url, 60)),
          answer,
        ),
      );
    }
    if (rows.length === 0) {
      rows.push(emptyRow(9, callbacks.length === 0 ? 'No receipt or inbound deliveries yet. Receipts are sent for sends that include delivery.receiptRequested = final.' : 'No attempt matches the filter.'));
    }
    byId('callbacks-body').replaceChildren(...rows);
  }

  function renderInbound(inbound: readonly DashboardInbound[]): void {
    const rows: HTMLElement[] = [];
    for (const message of inbound) {
      if (!h.matchesFilter([message.ticketId, message.from, message.to, message.text, message.content, message.status, message.url], state.filter)) continue;
      const content = el('td', { class: 'content-cell', 'data-testid': 'inbound-content' });
      if (message.text !== undefined) content.append(h.truncate(message.text, 80));
      if (message.text === undefined || message.type !== 'text') content.append(el('div', { class: 'mono muted' }, h.truncate(message.content, 60)));
      rows.push(
        el(
          'tr',
          { 'data-testid': 'inbound-row', 'data-ticket-id': message.ticketId },
          el('td', {}, timeEl(message.submittedAt)),
          el('th', { scope: 'row', class: 'mono' }, message.ticketId),
          el('td', {}, mono(message.from)),
          el('td', {}, mono(message.to)),
          el('td', {}, message.type, message.udh ? el('span', { class: 'badge tone-neutral' }, 'UDH') : ''),
          content,
          el('td', { class: 'url-cell' }, message.url ? mono(message.url, 48) : el('span', { class: 'muted' }, 'none')),
          el('td', {}, badge(message.status, h.outcomeTone(message.status), 'inbound-status')),
        ),
      );
    }
    if (rows.length === 0) {
      rows.push(emptyRow(8, inbound.length === 0 ? 'No inbound messages yet. Inject one with the form.' : 'No inbound message matches the filter.'));
    }
    byId('inbound-body').replaceChildren(...rows);
  }

  function renderInvocations(invocations: readonly DashboardInvocation[]): void {
    const rows: HTMLElement[] = [];
    for (const call of invocations) {
      if (!h.matchesFilter([call.requestId, call.serviceId, call.phoneNumber, call.accountId, call.outcome, call.code, call.description], state.filter)) continue;
      const outcome = el('td', {}, badge(call.outcome, h.outcomeTone(call.outcome), 'invocation-outcome'));
      if (call.code !== undefined) outcome.append(el('div', { class: 'muted' }, `${call.code} ${call.description ?? ''}`));
      rows.push(
        el(
          'tr',
          { 'data-testid': 'invocation-row' },
          el('td', {}, timeEl(call.at)),
          el('th', { scope: 'row', class: 'mono' }, call.requestId),
          el('td', { class: 'type-cell' }, call.accountId),
          el('td', {}, mono(call.serviceId, 40) || '—'),
          el('td', {}, mono(call.phoneNumber) || '—'),
          el('td', {}, call.variables === undefined ? el('span', { class: 'muted' }, 'none') : details('Variables', JSON.stringify(call.variables, null, 2), `variables:${call.requestId}`)),
          outcome,
        ),
      );
    }
    if (rows.length === 0) {
      rows.push(emptyRow(7, invocations.length === 0 ? 'No Invoke Service calls yet (POST /service/v1/invokeService/<serviceId>).' : 'No call matches the filter.'));
    }
    byId('invocations-body').replaceChildren(...rows);
  }

  function renderAccounts(snapshot: DashboardSnapshot): void {
    // Rebuilt only when the list changes, so an open account menu is left alone.
    const key = JSON.stringify(snapshot.accounts);
    if (key === state.accountsKey) return;
    state.accountsKey = key;
    byId('accounts-body').replaceChildren(
      ...snapshot.accounts.map((account) =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }, el('span', { class: 'mono' }, account.accountId), account.label ? el('div', { class: 'muted' }, account.label) : ''),
          el('td', { class: 'type-cell' }, account.kind),
          el('td', { class: 'mono', 'data-testid': `credentials-of-${account.accountId}` }, account.callbackCredentials ? `${account.callbackCredentials.username}:${account.callbackCredentials.password}` : 'none'),
        ),
      ),
    );
    const credentialsAccount = byId<HTMLSelectElement>('credentials-account');
    const chosenAccount = credentialsAccount.value;
    credentialsAccount.replaceChildren(...snapshot.accounts.map((account) => el('option', { value: account.accountId }, account.accountId)));
    if (snapshot.accounts.some((account) => account.accountId === chosenAccount)) credentialsAccount.value = chosenAccount;
    for (const id of ['inbound-account', 'compose-account']) {
      const select = byId<HTMLSelectElement>(id);
      const chosen = select.value;
      const options = [el('option', { value: '' }, 'Default account')];
      for (const account of snapshot.accounts) options.push(el('option', { value: account.accountId }, account.accountId));
      select.replaceChildren(...options);
      select.value = snapshot.accounts.some((account) => account.accountId === chosen) ? chosen : '';
    }
  }

  const settingsCurrent = byId('settings-current');
  const settingsOffset = byId<HTMLInputElement>('settings-offset');
  function renderSettings(snapshot: DashboardSnapshot): void {
    const offset = snapshot.settings?.callbackTimestampOffset ?? 'Z';
    settingsCurrent.textContent = offset === 'Z' ? 'Z (UTC)' : offset;
    // The field follows the sandbox unless the user is editing it.
    if (document.activeElement !== settingsOffset) settingsOffset.value = offset;
  }

  function renderScenarios(scenarios: Record<string, unknown>): void {
    const rows: HTMLElement[] = [];
    for (const [destination, scenario] of Object.entries(scenarios)) {
      const remove = el('button', { type: 'button', class: 'link', 'aria-label': `Remove the scenario of ${destination}`, 'data-focus-key': `scenario:${destination}` }, 'Remove');
      remove.addEventListener('click', async () => {
        const response = await api(`scenarios/${encodeURIComponent(destination)}`, { method: 'DELETE' });
        if (response.ok) setStatus(scenarioStatus, `Scenario of ${destination} removed.`, 'ok');
        else setStatus(scenarioStatus, await errorOf(response), 'fail');
        void loadScenarios();
      });
      rows.push(el('tr', { 'data-testid': 'scenario-row' }, el('th', { scope: 'row', class: 'mono' }, destination), el('td', {}, h.describeScenario(scenario)), el('td', {}, remove)));
    }
    if (rows.length === 0) rows.push(emptyRow(3, 'None: every part is delivered (code 4) after the default delay.'));
    byId('scenarios-body').replaceChildren(...rows);
  }

  // ---------- tabs and filter ----------

  const tabs = Array.from(document.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
  function selectTab(tab: HTMLButtonElement, focus: boolean): void {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(other.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !selected;
    }
    if (focus) tab.focus();
  }
  tabs.forEach((tab, index) => {
    tab.addEventListener('click', () => selectTab(tab, false));
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      const target = event.key === 'Home' ? tabs[0] : event.key === 'End' ? tabs[tabs.length - 1] : step ? tabs[(index + step + tabs.length) % tabs.length] : undefined;
      if (target) {
        event.preventDefault();
        selectTab(target, true);
      }
    });
  });

  const filter = byId<HTMLInputElement>('filter');
  filter.addEventListener('input', () => {
    state.filter = filter.value;
    renderTables();
  });

  // ---------- forms ----------

  const composeForm = byId<HTMLFormElement>('compose-form');
  const composeText = byId<HTMLTextAreaElement>('compose-text');
  const composeStatus = byId('compose-status');
  /** Counts the parts of the text as it is typed, with core's estimator running in the page. */
  function countParts(): void {
    const summary = h.describeEstimate(text.explain(composeText.value));
    byId('compose-encoding').textContent = summary.encoding;
    byId('compose-parts').textContent = summary.parts;
    byId('compose-left').textContent = summary.left;
    const forced = byId('compose-forced');
    forced.textContent = summary.forced;
    forced.hidden = summary.forced === '';
    const substitutes = byId('compose-substitutes');
    substitutes.textContent = summary.substitutes;
    substitutes.hidden = summary.substitutes === '';
  }
  composeText.addEventListener('input', countParts);
  composeForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const built = h.buildComposeBody(formValues(composeForm));
    if (!built.ok) {
      setStatus(composeStatus, built.error, 'fail');
      return;
    }
    setStatus(composeStatus, 'Sending…', 'pending');
    try {
      const response = await api('messages', { method: 'POST', body: built.value });
      if (!response.ok) {
        setStatus(composeStatus, await errorOf(response), 'fail');
        return;
      }
      const answer = (await response.json()) as { status: number; ticketId?: string; error?: { code?: string; description?: string } };
      if (answer.status === 202) setStatus(composeStatus, `Accepted: ticket ${answer.ticketId ?? ''}`, 'ok');
      else setStatus(composeStatus, `${answer.error?.code ?? answer.status} ${answer.error?.description ?? ''}`.trim(), 'fail');
      void loadState();
    } catch {
      setStatus(composeStatus, 'The sandbox could not be reached.', 'fail');
    }
  });

  const inboundForm = byId<HTMLFormElement>('inbound-form');
  const inboundStatus = byId('inbound-status');
  function syncInboundForm(): void {
    const values = formValues(inboundForm);
    const hex = values.mode === 'hex';
    byId<HTMLInputElement>('inbound-binary').disabled = !hex;
    byId<HTMLInputElement>('inbound-udh').disabled = !hex;
    byId<HTMLLabelElement>('inbound-content-label').textContent = hex ? 'Hex content' : 'Text';
    byId<HTMLSelectElement>('inbound-reference').disabled = values.multipart !== 'on';
  }
  inboundForm.addEventListener('change', syncInboundForm);
  inboundForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = formValues(inboundForm);
    const built = h.buildInboundBody({ ...values, binary: values.binary === 'on', udh: values.udh === 'on', multipart: values.multipart === 'on' });
    if (!built.ok) {
      setStatus(inboundStatus, built.error, 'fail');
      return;
    }
    setStatus(inboundStatus, 'Injecting…', 'pending');
    try {
      const response = await api('inbound', { method: 'POST', body: built.value });
      if (response.status === 202) {
        const answer = (await response.json()) as { ticketIds?: string[] };
        const ids = answer.ticketIds ?? [];
        setStatus(inboundStatus, `Injected ${ids.length} part${ids.length === 1 ? '' : 's'}: ${ids.join(', ')}`, 'ok');
        void loadState();
      } else {
        setStatus(inboundStatus, await errorOf(response), 'fail');
      }
    } catch {
      setStatus(inboundStatus, 'The sandbox could not be reached.', 'fail');
    }
  });

  const scenarioForm = byId<HTMLFormElement>('scenario-form');
  const scenarioStatus = byId('scenario-status');
  const scenarioFields: Record<string, string[]> = {
    delivered: ['delay'],
    delayed: ['delay'],
    expired: [],
    'fail-part': ['segment', 'code'],
    'no-receipt': ['segment'],
    rejected: ['code'],
  };
  function syncScenarioForm(): void {
    const shown = scenarioFields[formValues(scenarioForm).kind ?? ''] ?? [];
    for (const field of ['delay', 'segment', 'code']) {
      const wrapper = byId(`scenario-${field}-field`);
      wrapper.hidden = !shown.includes(field);
      const input = wrapper.querySelector('input');
      if (input) input.disabled = wrapper.hidden;
    }
  }
  scenarioForm.addEventListener('change', syncScenarioForm);
  scenarioForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const built = h.buildScenario(formValues(scenarioForm));
    if (!built.ok) {
      setStatus(scenarioStatus, built.error, 'fail');
      return;
    }
    try {
      const { destination, scenario } = built.value;
      const response = await api(`scenarios/${encodeURIComponent(destination)}`, { method: 'PUT', body: scenario });
      if (response.ok) setStatus(scenarioStatus, `Scenario for ${destination === '*' ? 'every destination' : destination}: ${h.describeScenario(scenario)}.`, 'ok');
      else setStatus(scenarioStatus, await errorOf(response), 'fail');
      void loadScenarios();
    } catch {
      setStatus(scenarioStatus, 'The sandbox could not be reached.', 'fail');
    }
  });

  const settingsForm = byId<HTMLFormElement>('settings-form');
  const settingsStatus = byId('settings-status');
  settingsForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const offset = settingsOffset.value.trim();
    try {
      const response = await api('settings', { method: 'PUT', body: { callbackTimestampOffset: offset } });
      if (response.ok) setStatus(settingsStatus, `Callbacks now carry timestamps at ${offset === 'Z' ? 'UTC (Z)' : offset}.`, 'ok');
      else setStatus(settingsStatus, await errorOf(response), 'fail');
      void loadState();
    } catch {
      setStatus(settingsStatus, 'The sandbox could not be reached.', 'fail');
    }
  });

  const credentialsForm = byId<HTMLFormElement>('credentials-form');
  const credentialsStatus = byId('credentials-status');
  async function changeCredentials(remove: boolean): Promise<void> {
    const values = formValues(credentialsForm);
    const accountId = values.accountId ?? '';
    const path = `accounts/${encodeURIComponent(accountId)}/callback-credentials`;
    try {
      const response = remove ? await api(path, { method: 'DELETE' }) : await api(path, { method: 'PUT', body: { username: values.username ?? '', password: values.password ?? '' } });
      if (response.ok) {
        setStatus(credentialsStatus, remove ? `Callbacks of ${accountId} now carry no credentials.` : `Callbacks of ${accountId} now carry the credentials of ${values.username ?? ''}.`, 'ok');
        // The password leaves the page once the sandbox has it.
        const password = credentialsForm.elements.namedItem('password');
        if (password instanceof HTMLInputElement) password.value = '';
      } else setStatus(credentialsStatus, await errorOf(response), 'fail');
      void loadState();
    } catch {
      setStatus(credentialsStatus, 'The sandbox could not be reached.', 'fail');
    }
  }
  credentialsForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void changeCredentials(false);
  });
  byId('credentials-remove').addEventListener('click', () => void changeCredentials(true));

  const faultForm = byId<HTMLFormElement>('fault-form');
  const faultStatus = byId('fault-status');
  function syncFaultForm(): void {
    const values = formValues(faultForm);
    const latency = byId('fault-latency-field');
    latency.hidden = values.kind !== 'latency';
    const latencyInput = latency.querySelector('input');
    if (latencyInput) latencyInput.disabled = latency.hidden;
    const operation = (values.operation ?? 'send') as keyof DashboardPageConfig['faultDescriptions'];
    const descriptions = config.faultDescriptions[operation] ?? config.faultDescriptions.send;
    for (const option of Array.from(byId<HTMLSelectElement>('fault-kind').options)) {
      if (option.value === '1010' || option.value === '1000') option.textContent = `${option.value} — ${descriptions[option.value]}`;
    }
  }
  faultForm.addEventListener('change', syncFaultForm);
  faultForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const built = h.buildFault(formValues(faultForm));
    if (!built.ok) {
      setStatus(faultStatus, built.error, 'fail');
      return;
    }
    try {
      const response = await api('faults', { method: 'POST', body: built.value });
      const { operation, kind, count = 1 } = built.value;
      if (response.ok) setStatus(faultStatus, `Armed: the next ${count === 1 ? '' : `${count} `}${operation} call${count === 1 ? '' : 's'} → ${kind}.`, 'ok');
      else setStatus(faultStatus, await errorOf(response), 'fail');
    } catch {
      setStatus(faultStatus, 'The sandbox could not be reached.', 'fail');
    }
  });
  byId('fault-clear').addEventListener('click', async () => {
    const response = await api('faults', { method: 'DELETE' });
    setStatus(faultStatus, response.ok ? 'All faults cleared.' : await errorOf(response), response.ok ? 'ok' : 'fail');
  });

  const resetStatus = byId('reset-status');
  byId('reset').addEventListener('click', async () => {
    const response = await api('reset', { method: 'POST' });
    if (response.ok) {
      state.expanded.clear();
      setStatus(resetStatus, 'Sandbox reset: messages, callbacks, inbound, invocations, scenarios and faults cleared.', 'ok');
      void refreshAll();
    } else {
      setStatus(resetStatus, await errorOf(response), 'fail');
    }
  });

  // ---------- start ----------

  byId('api-base').textContent = h.serviceBase(location.href);
  const codes = byId<HTMLDataListElement>('failure-codes');
  codes.replaceChildren(...config.failureCodes.map((entry) => el('option', { value: entry.code }, `${entry.code} ${entry.description}`)));
  const charset = byId<HTMLSelectElement>('inbound-charset');
  charset.append(...config.charsets.map((name) => el('option', { value: name }, name)));
  countParts();
  syncInboundForm();
  syncScenarioForm();
  syncFaultForm();
  readToken();
  const controller = new AbortController();
  window.addEventListener('pagehide', () => controller.abort());
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) location.reload(); // restored from the back-forward cache without its stream
  });
  setConnection('connecting', 'Connecting…');
  void refreshAll();
  void listen(controller.signal);
}
