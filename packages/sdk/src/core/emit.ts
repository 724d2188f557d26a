// Document events of product.md §2, so shops and tests can observe the script.

import { doc, safe } from "../env/globals.js";

export function emit(name: string, detail?: unknown): void {
  safe(() => doc.dispatchEvent(new CustomEvent(name, { detail })));
}
