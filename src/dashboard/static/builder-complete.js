// @ts-check
/* global document, KeyboardEvent */
/**
 * Field-name completion in the builder's JSON editor: while a field name is being typed (after
 * its opening quote, in an object), a list of the names the request's schema allows there
 * (views/builder-schema.ts) drops over the editor's foot, narrowed by what is typed. As ARIA's
 * autocomplete for a text box (a multi-line one cannot be a combobox): the list is a listbox,
 * the active option is the textarea's aria-activedescendant, ↑ ↓ move, Enter or Tab takes the
 * name (`"name": `), Esc closes. The list opens only while a name is being typed, so Enter
 * still starts a new line and Tab still leaves the editor anywhere else.
 */

/** @typedef {{name: string, description: string}} Hint */
/** @typedef {Record<string, Hint[]>} Table */

/** At most this many names are listed (the longest list, a structure's, has 17). */
const MAX_SHOWN = 20;

/**
 * Where the cursor is in the JSON before it: in a field name being typed (after its opening
 * quote), the object it is in (as the table keys places: "", "domain", "structures[]"), the
 * name typed so far and where its quote is; null anywhere else.
 * A small scanner over strings, brackets, colons and commas: it needs no valid JSON after the
 * cursor, and forgives what it does not follow.
 * @param {string} text the JSON up to the cursor
 * @returns {{at: string, typed: string, from: number} | null}
 */
export function nameContext(text) {
  /** @type {{array: boolean, key: string | null, expectKey: boolean}[]} */
  const stack = [];
  let lastString = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const start = i;
      let value = "";
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === "\\") i++;
        value += text[i] ?? "";
      }
      if (i >= text.length) {
        // The cursor is inside this string: a name if the object expects one.
        return top && !top.array && top.expectKey
          ? { at: placeOf(stack), typed: value, from: start }
          : null;
      }
      lastString = value;
    } else if (c === "{" || c === "[") {
      stack.push({ array: c === "[", key: null, expectKey: c === "{" });
    } else if (c === "}" || c === "]") {
      stack.pop();
    } else if (c === ":" && top && !top.array) {
      top.key = lastString;
      top.expectKey = false;
    } else if (c === "," && top && !top.array) {
      top.expectKey = true;
    }
  }
  return null;
}

/**
 * The table's key for the innermost object: the names of the fields holding it, `[]` for a
 * list's item.
 * @param {{array: boolean, key: string | null}[]} stack
 */
function placeOf(stack) {
  let at = "";
  for (const frame of stack.slice(0, -1)) {
    if (frame.array) at += "[]";
    else at += at === "" ? (frame.key ?? "") : `.${frame.key ?? ""}`;
  }
  return at;
}

/**
 * The list's options, the active one selected; `pick(k)` takes the k-th.
 * @param {Hint[]} hints @param {number} active @param {(k: number) => void} pick
 */
function optionsOf(hints, active, pick) {
  return hints.map((h, k) => {
    const option = document.createElement("li");
    option.id = `json-complete-${k}`;
    option.setAttribute("role", "option");
    option.setAttribute("aria-selected", String(k === active));
    const name = document.createElement("span");
    name.className = "mono";
    name.textContent = h.name;
    const words = document.createElement("span");
    words.className = "json-complete-words";
    words.textContent = h.description;
    option.append(name, words);
    // mousedown, not click: the editor keeps its focus and cursor.
    option.addEventListener("mousedown", (event) => {
      event.preventDefault();
      pick(k);
    });
    return option;
  });
}

/**
 * Wires completion to the editor; `onChange` runs after a name is put in.
 * @param {HTMLTextAreaElement} editor @param {HTMLElement} list @param {Table} table
 * @param {() => void} onChange
 */
export function attachCompletion(editor, list, table, onChange) {
  /** @type {{from: number, hints: Hint[], active: number} | null} */
  let open = null;

  const close = () => {
    open = null;
    list.hidden = true;
    list.replaceChildren();
    editor.removeAttribute("aria-activedescendant");
  };

  const show = () => {
    if (!open) return;
    const current = open;
    list.replaceChildren(
      ...optionsOf(current.hints, current.active, (k) => {
        current.active = k;
        take();
      }),
    );
    list.hidden = false;
    editor.setAttribute("aria-activedescendant", `json-complete-${current.active}`);
  };

  const take = () => {
    const hint = open?.hints[open.active];
    if (!open || !hint) return;
    const end = editor.selectionStart;
    const before = editor.value.slice(0, open.from);
    const after = editor.value.slice(end).replace(/^"\s*:?\s*/, "");
    const inserted = `"${hint.name}": `;
    editor.value = before + inserted + after;
    editor.selectionStart = editor.selectionEnd = before.length + inserted.length;
    close();
    onChange();
  };

  editor.addEventListener("input", () => {
    const context = nameContext(editor.value.slice(0, editor.selectionStart));
    const typed = context?.typed.toLowerCase() ?? "";
    const hints = context
      ? (table[context.at] ?? []).filter((h) => h.name.toLowerCase().startsWith(typed))
      : [];
    // Nothing to offer, or the name is complete: no list in the way.
    if (
      !context ||
      hints.length === 0 ||
      (hints.length === 1 && hints[0]?.name === context.typed)
    ) {
      close();
      return;
    }
    open = { from: context.from, hints: hints.slice(0, MAX_SHOWN), active: 0 };
    show();
  });

  editor.addEventListener("keydown", (event) => {
    if (!open || !(event instanceof KeyboardEvent)) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const n = open.hints.length;
      open.active = (open.active + (event.key === "ArrowDown" ? 1 : n - 1)) % n;
      show();
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      take();
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  });
  editor.addEventListener("blur", close);
  editor.addEventListener("click", close);
}
