// The part of the visual editor that is in storefit.js: in edit mode, boot loads the bridge
// (storefit-editor.js, editor/index.ts) from api_host after revealing the page. No once-guard
// (14 bytes): a single-page re-initialization in the editor fetches the file again, and the
// bridge starts only once per page (editor/index.ts).
import { loadScript } from "../core/ext.js";

declare const __DEBUG__: boolean;

export const loadEditor = (apiHost: string): Promise<boolean> =>
  loadScript(apiHost, __DEBUG__ ? "storefit-editor.debug.js" : "storefit-editor.js");
