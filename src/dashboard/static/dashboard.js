// @ts-check
/* global document, window, navigator, fetch, location, setTimeout, clearTimeout, HTMLElement, HTMLFormElement, HTMLInputElement */
/**
 * The dashboard's page script (an ES module, loaded with script-src 'self'): local relative
 * times, copy buttons, confirmation dialogs for destructive forms, live updates of job and batch
 * lists and pages while they run, the field plots (plot.js), a batch's sweep plot controls
 * (sweep-plot.js) and the New simulation page (builder.js), each loaded only where needed.
 * Every page works without it; it only makes them nicer.
 */

const ACTIVE_POLL_MS = 1500;
const IDLE_POLL_MS = 10000;

// ---------- relative times ----------

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const UNITS = /** @type {const} */ ([
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
]);

/** @param {Date} date */
function relativeText(date) {
  const seconds = (date.getTime() - Date.now()) / 1000;
  if (Math.abs(seconds) < 45) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") {
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return "";
}

/** @param {ParentNode} root */
function updateTimes(root = document) {
  for (const el of root.querySelectorAll("time[data-relative]")) {
    const date = new Date(el.getAttribute("datetime") ?? "");
    if (Number.isNaN(date.getTime())) continue;
    el.textContent = relativeText(date);
    el.setAttribute("title", absolute.format(date));
  }
}

// ---------- copy buttons ----------

/** @param {HTMLElement} button */
async function copyFrom(button) {
  const target = document.querySelector(button.dataset.copy ?? "");
  if (!(target instanceof HTMLInputElement)) return;
  const status = button.closest(".card")?.querySelector("[data-copy-status]");
  let ok = false;
  try {
    await navigator.clipboard.writeText(target.value);
    ok = true;
  } catch {
    // Clipboard API unavailable (plain HTTP on another host): select and use the old command.
    target.focus();
    target.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
  }
  const label = button.textContent;
  button.textContent = ok ? "Copied" : "Press Ctrl+C";
  button.classList.toggle("copied", ok);
  if (status) status.textContent = ok ? "Copied to the clipboard." : "Select the text and copy it.";
  setTimeout(() => {
    button.textContent = label;
    button.classList.remove("copied");
  }, 2000);
}

// ---------- confirmation dialogs ----------

/** @type {HTMLDialogElement | null} */
let dialog = null;

/**
 * @param {string} message
 * @param {string} confirmLabel
 * @returns {Promise<boolean>}
 */
function confirmAction(message, confirmLabel) {
  if (!dialog) {
    dialog = document.createElement("dialog");
    dialog.className = "confirm";
    dialog.setAttribute("aria-labelledby", "confirm-text");
    dialog.innerHTML = `<form method="dialog"><p id="confirm-text"></p><div class="actions-row"><button class="btn btn-quiet" value="cancel" type="submit">Cancel</button><button class="btn btn-danger" value="ok" type="submit" data-ok></button></div></form>`;
    document.body.append(dialog);
  }
  const d = dialog;
  const text = /** @type {HTMLElement} */ (d.querySelector("#confirm-text"));
  const ok = /** @type {HTMLElement} */ (d.querySelector("[data-ok]"));
  text.textContent = message;
  ok.textContent = confirmLabel;
  d.returnValue = "";
  d.showModal();
  /** @type {HTMLElement} */ (d.querySelector('[value="cancel"]')).focus();
  return new Promise((resolve) => {
    d.addEventListener("close", () => resolve(d.returnValue === "ok"), { once: true });
  });
}

/** @param {SubmitEvent} event */
function onSubmit(event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  if (form.querySelector('input[name="confirm"]')) return;
  event.preventDefault();
  confirmAction(form.dataset.confirm, form.dataset.confirmButton ?? "Confirm").then((yes) => {
    if (!yes) return;
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = "confirm";
    input.value = "yes";
    form.append(input);
    form.submit();
  });
}

// ---------- live updates ----------

/**
 * Polls `url` with `onData` deciding the next delay (null = stop); pauses while the page is
 * hidden and refreshes at once when it is shown again.
 * @param {string} url
 * @param {(data: any) => number | null} onData
 */
function poll(url, onData) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let stopped = false;
  let failures = 0;
  async function tick() {
    clearTimeout(timer);
    if (stopped) return;
    if (document.hidden) return;
    let next = /** @type {number | null} */ (ACTIVE_POLL_MS);
    try {
      const res = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" });
      if (res.status === 401) {
        location.reload();
        return;
      }
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      failures = 0;
      next = onData(await res.json());
    } catch {
      failures++;
      next = Math.min(30000, ACTIVE_POLL_MS * 2 ** failures);
    }
    if (next === null) {
      stopped = true;
      return;
    }
    timer = setTimeout(tick, next);
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) tick();
  });
  timer = setTimeout(tick, ACTIVE_POLL_MS);
}

/**
 * @param {string} markup one table row
 * @returns {HTMLElement}
 */
function rowFrom(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return /** @type {HTMLElement} */ (template.content.firstElementChild);
}

/**
 * What a live list is made of: the answer's array (`jobs`, `batches`), each item's id field,
 * the rows' data attribute holding it, and the empty state's element.
 * @typedef {{items: string, id: string, rowData: "jobId" | "batchId", empty: string}} ListKind
 */

/** @type {ListKind} */
const JOB_LIST = { items: "jobs", id: "job_id", rowData: "jobId", empty: "jobs-empty" };
/** @type {ListKind} */
const BATCH_LIST = { items: "batches", id: "batch_id", rowData: "batchId", empty: "batches-empty" };

/**
 * Keeps the first page of a job or batch list current: rows whose rendering changed are
 * replaced, new ones appear at the top, and nothing else is touched (so focus and selection
 * survive).
 * @param {HTMLElement} body the table body
 * @param {ListKind} kind
 */
function liveList(body, kind) {
  const url = body.dataset.poll;
  if (!url || !("firstPage" in body.dataset)) return;
  const attribute = kind.rowData === "jobId" ? "data-job-id" : "data-batch-id";
  /** @type {Map<string, string>} */
  const rendered = new Map();
  poll(url, (data) => {
    /** @type {{updated_at: string, status: string, row_html: string, [id: string]: string}[]} */
    const items = data[kind.items];
    /** @type {Map<string, HTMLElement>} */
    const rows = new Map();
    for (const row of body.querySelectorAll(`tr[${attribute}]`)) {
      if (row instanceof HTMLElement) rows.set(row.dataset[kind.rowData] ?? "", row);
    }
    /** @type {HTMLElement[]} */
    const ordered = [];
    for (const item of items) {
      const id = item[kind.id] ?? "";
      let row = rows.get(id);
      const unchanged = rendered.has(id)
        ? rendered.get(id) === item.row_html
        : row?.dataset.updated === item.updated_at && item.status !== "RUNNING";
      rendered.set(id, item.row_html);
      if (!row || !unchanged) {
        const fresh = rowFrom(item.row_html);
        updateTimes(fresh);
        if (row) row.replaceWith(fresh);
        row = fresh;
      }
      ordered.push(row);
    }
    const current = [...body.children];
    if (current.length !== ordered.length || ordered.some((row, i) => current[i] !== row)) {
      body.replaceChildren(...ordered);
    }
    if (items.length > 0) {
      document.getElementById(kind.empty)?.setAttribute("hidden", "");
      body.closest(".table-wrap")?.removeAttribute("hidden");
    }
    return data.active ? ACTIVE_POLL_MS : IDLE_POLL_MS;
  });
}

/** @param {HTMLElement} live the live section of a job page */
function liveJob(live) {
  const url = live.dataset.jobPoll;
  const initial = live.dataset.status ?? "";
  if (!url || !["QUEUED", "RUNNING"].includes(initial)) return;
  poll(url, (data) => {
    if (data.job.status !== initial && !data.active) {
      // Finished: the whole page changes (download, plots, report).
      location.reload();
      return null;
    }
    if (data.job.status !== live.dataset.status || data.job.updated_at !== live.dataset.updated) {
      live.innerHTML = data.live_html;
      live.dataset.status = data.job.status;
      live.dataset.updated = data.job.updated_at;
      updateTimes(live);
    } else if (data.job.status === "RUNNING") {
      // The elapsed time changes even between progress reports.
      live.innerHTML = data.live_html;
      updateTimes(live);
    }
    return ACTIVE_POLL_MS;
  });
}

/**
 * Keeps a batch's page current while it runs: its status, counts and progress, and the rows of
 * its jobs table; once it has ended the whole page changes (download, plot), so it reloads.
 * @param {HTMLElement} live the live section of a batch page
 */
function liveBatch(live) {
  const url = live.dataset.batchPoll;
  const initial = live.dataset.status ?? "";
  if (!url || !["QUEUED", "RUNNING"].includes(initial)) return;
  const jobs = document.getElementById("batch-jobs-body");
  poll(url, (data) => {
    if (!data.active) {
      location.reload();
      return null;
    }
    if (
      data.batch.updated_at !== live.dataset.updated ||
      data.batch.status !== live.dataset.status
    ) {
      live.innerHTML = data.live_html;
      live.dataset.status = data.batch.status;
      live.dataset.updated = data.batch.updated_at;
      updateTimes(live);
      if (jobs && jobs.innerHTML !== data.jobs_html) jobs.innerHTML = data.jobs_html;
    }
    return ACTIVE_POLL_MS;
  });
}

// ---------- start ----------

function start() {
  updateTimes();
  window.setInterval(() => updateTimes(), 30000);
  document.addEventListener("click", (event) => {
    const target = event.target instanceof HTMLElement ? event.target : null;
    const button = target?.closest("[data-copy]");
    if (button instanceof HTMLElement) copyFrom(button);
  });
  // Copy buttons are hidden in the page as sent: without this script they would do nothing.
  for (const button of document.querySelectorAll("[data-copy][hidden]")) {
    button.removeAttribute("hidden");
  }
  for (const input of document.querySelectorAll("[data-select-on-focus]")) {
    if (input instanceof HTMLInputElement) {
      input.addEventListener("focus", () => input.select());
      input.addEventListener("click", () => input.select());
    }
  }
  document.addEventListener("submit", onSubmit);
  const body = document.getElementById("jobs-body");
  if (body) liveList(body, JOB_LIST);
  const batchList = document.getElementById("batches-body");
  if (batchList) liveList(batchList, BATCH_LIST);
  const live = document.getElementById("job-live");
  if (live) liveJob(live);
  const batchLive = document.getElementById("batch-live");
  if (batchLive) liveBatch(batchLive);
  const sweep = document.querySelector("form[data-sweep-plot]");
  if (sweep instanceof HTMLFormElement) {
    import("./sweep-plot.js").then((m) => m.initSweepPlot(sweep));
  }
  const plots = document.getElementById("plots");
  if (plots) {
    import("./plot.js").then((m) => m.initPlots(plots));
  }
  const builder = document.getElementById("builder");
  if (builder instanceof HTMLFormElement) {
    import("./builder.js").then((m) => m.initBuilder(builder));
  }
  const fabrication = document.getElementById("fabrication");
  if (fabrication) {
    import("./fabrication.js").then((m) => m.initFabrication(fabrication));
  }
}

start();
