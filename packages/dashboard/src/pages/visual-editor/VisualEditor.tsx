// The editor itself, once the experience and the account are loaded: the page chooser, the
// frame, the variation switcher, the device widths, undo/redo, save, and the panel.
import { useCallback, useEffect, useId, useMemo, useReducer, useRef, useState } from "react";
import { useUnsavedWarning } from "../../components/useUnsavedWarning";
import type { FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import type {
  AccountView,
  BridgeMessage,
  ConfigDefinition,
  EditorDevice,
  ElementInfo,
  ExperienceDetail,
  SelectionDirection,
} from "@storefit/contract";
import { editorFrameUrl, originOf } from "@storefit/contract";
import { isApiRequestError } from "../../api/client";
import {
  useReloadExperience,
  useSaveVariationConfigs,
  variationConfigs,
} from "../../api/visual-editor";
import { isVersionConflict } from "../../api/experiences";
import { paths } from "../../paths";
import { useCanEdit } from "../experiences/canEdit";
import { OverlapNotice } from "../experiences/OverlapNotice";
import { ElementPanel } from "./ElementPanel";
import type { Edit } from "./ElementPanel";
import { PopupForm } from "./PopupForm";
import type { ChangeScope, EditorState, FrameLocation, VariationContext } from "./model";
import {
  describeConfig,
  deviceEdit,
  deviceView,
  editElement,
  editorReducer,
  elementConfigIndex,
  configOnPage,
  isDirty,
  locationOf,
  pageTargeted,
  previewConfigs,
  templateOf,
  variationOf,
} from "./model";
import { isShopOrigin, useBridge } from "./useBridge";
import { PageProblem } from "./PageProblem";
import { shopPageUrl } from "../../shop-address";
import type { ShopAddresses } from "../../shop-address";

/** How long the page may take to load the script and the bridge before we say something. */
export const BRIDGE_TIMEOUT_MS = 15_000;

/** How long after the frame's load event the bridge may take to say ready (it loads after the page). */
export const BRIDGE_AFTER_LOAD_MS = 5_000;

/** The frame's width for the mobile preview (CSS pixels), a common phone. */
export const MOBILE_WIDTH_PX = 390;

const NAV_KEYS: Record<string, SelectionDirection> = {
  ArrowUp: "parent",
  ArrowDown: "child",
  ArrowLeft: "previous",
  ArrowRight: "next",
};

const NAV_LABELS: readonly (readonly [SelectionDirection, string, string])[] = [
  ["parent", "Parent", "Alt+↑"],
  ["child", "First child", "Alt+↓"],
  ["previous", "Previous sibling", "Alt+←"],
  ["next", "Next sibling", "Alt+→"],
];

type VariationOption = { id: string; label: string; context: VariationContext };

function variationOptions(experience: ExperienceDetail): VariationOption[] {
  const many = experience.rules.length > 1;
  return experience.rules.flatMap((rule) =>
    rule.behaviour.variations.map((v) => ({
      id: v.id,
      label: many ? `${rule.audience_name ?? rule.behaviour.name} · ${v.name}` : v.name,
      context: {
        experienceId: experience.id,
        behaviourId: rule.behaviour.id,
        deviceSpecific: !!rule.behaviour.config_modifications?.device_specific,
      },
    })),
  );
}

function initialState(experience: ExperienceDetail): EditorState {
  const variations: Record<string, ConfigDefinition[]> = {};
  for (const rule of experience.rules)
    for (const v of rule.behaviour.variations) variations[v.id] = v.configs;
  return editorReducer({ histories: {}, saved: {} }, { type: "load", variations });
}

/** Where the origins of the shop's hosts last opened are remembered (scheme and port). */
const ORIGINS_KEY = "storefit.visual-editor.origins";

function rememberedOrigins(): Record<string, string> {
  try {
    const v: unknown = JSON.parse(window.localStorage.getItem(ORIGINS_KEY) ?? "{}");
    return v && typeof v === "object" ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function rememberOrigin(url: string): void {
  try {
    const u = new URL(url);
    const all = { ...rememberedOrigins(), [u.hostname]: u.origin };
    window.localStorage.setItem(ORIGINS_KEY, JSON.stringify(all));
  } catch {
    // Storage may be off: suggestions then guess the scheme.
  }
}

/**
 * The shop pages the experience targets, as addresses to open: on the address the account lists
 * for that domain (Settings → Shop and domains: scheme and port), else on the origin last opened
 * for that host, else https (http for `.localhost`). Then the main domain's home page.
 */
function suggestedPages(experience: ExperienceDetail, settings: ShopAddresses): string[] {
  const origins = rememberedOrigins();
  const listed = (host: string) =>
    settings.site_origins?.some((o) => originOf(o) !== null && new URL(o).hostname === host);
  const pageOn = (domain: string, path: string) => {
    const host = domain.toLowerCase();
    const remembered = origins[host];
    return !listed(host) && remembered
      ? `${remembered}${path.startsWith("/") ? "" : "/"}${path}`
      : shopPageUrl(host, path, settings);
  };
  // Whole pages first (a "contains" path such as /products/ is often no page of its own): exact
  // targets, then the pages the variations' changes are bound to, then the rest.
  const targets = experience.pages.filter((p) => p.page_match !== "regex" && p.domain);
  const configPages = experience.rules.flatMap((r) =>
    r.behaviour.variations.flatMap((v) =>
      v.configs.flatMap((c) => {
        const p = c.properties;
        return p?.page_path && (p.page_match ?? "exact_match") === "exact_match"
          ? [{ domain: p.domain || settings.domain, page_path: p.page_path }]
          : [];
      }),
    ),
  );
  const pages = [
    ...targets.filter((p) => p.page_match === "exact_match"),
    ...configPages,
    ...targets.filter((p) => p.page_match !== "exact_match"),
  ]
    .filter((p) => p.domain)
    .map((p) => pageOn(p.domain, p.page_path));
  if (settings.domain) pages.push(pageOn(settings.domain, "/"));
  return [...new Set(pages)];
}

/** The service's words, its code, and the details of a validation error. */
function SaveError({
  error,
  onReload,
  reloading,
}: {
  error: Error;
  onReload: () => void;
  reloading: boolean;
}) {
  if (isVersionConflict(error))
    return (
      <div className="form__error ve-save-error" role="alert" data-testid="save-conflict">
        <p>
          <strong>Not saved: this variation was changed since you opened it</strong> — in another
          tab or by someone else. Saving would overwrite those changes, so nothing was saved. Your
          edits are still here; note what you need, then load the latest version and apply them
          again.
        </p>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={onReload}
          disabled={reloading}
        >
          Reload the latest version (discards your edits to this variation)
        </button>
      </div>
    );
  const details = isApiRequestError(error) ? error.details : undefined;
  return (
    <div className="form__error ve-save-error" role="alert">
      <p>
        Could not save: {error.message}
        {isApiRequestError(error) ? <span className="mono"> ({error.code})</span> : null}
      </p>
      {Array.isArray(details) && details.length > 0 ? (
        <ul>
          {details.slice(0, 5).map((d, i) => (
            <li key={i} className="mono">
              {typeof d === "string" ? d : JSON.stringify(d)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function inEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(?:INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

export function VisualEditor({
  experience,
  account,
  requestedVariationId,
  initialPage,
}: {
  experience: ExperienceDetail;
  account: AccountView;
  requestedVariationId: string | null;
  initialPage: string | null;
}) {
  const [, setSearchParams] = useSearchParams();
  // A viewer browses pages, selects elements and switches variations, and changes nothing (the
  // service would refuse the save: 403).
  const canEdit = useCanEdit();
  const variations = useMemo(() => variationOptions(experience), [experience]);
  const [state, dispatch] = useReducer(editorReducer, experience, initialState);
  const [variationId, setVariationId] = useState(
    variations.some((v) => v.id === requestedVariationId)
      ? requestedVariationId!
      : (variations[0]?.id ?? ""),
  );
  const domains = useMemo(
    () => ({ domain: account.settings.domain, subdomains: account.settings.subdomains ?? [] }),
    [account],
  );
  const suggestions = useMemo(
    () => suggestedPages(experience, account.settings),
    [experience, account],
  );

  // ---- the page in the frame ----
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [address, setAddress] = useState(initialPage ?? suggestions[0] ?? "");
  const [addressError, setAddressError] = useState<string | null>(null);
  /** The page framed; `n` counts the openings, so opening the same address again reloads it. */
  const [opened, setOpened] = useState<{ url: string; page: string; origin: string; n: number } | null>(null);
  /** The frame fired load (a page, or the browser's error page): the bridge is due soon. */
  const [frameLoaded, setFrameLoaded] = useState(false);
  const [location, setLocation] = useState<FrameLocation | null>(null);
  const [ready, setReady] = useState(false);
  /** Counts the bridge's `ready`s: a reloaded page has a new bridge with nothing previewed. */
  const [readyCount, setReadyCount] = useState(0);
  const [timedOut, setTimedOut] = useState(false);
  const [device, setDevice] = useState<EditorDevice>("desktop");
  const [selectMode, setSelectMode] = useState(true);
  const [scope, setScope] = useState<ChangeScope>("page");

  // ---- what the bridge reports ----
  const [selection, setSelection] = useState<ElementInfo | null>(null);
  const [hover, setHover] = useState<{ path: string; matchCount: number } | null>(null);
  const [bridgeError, setBridgeError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ missing: string[]; skipped: string[] } | null>(null);
  const [pathText, setPathText] = useState("");

  const open = useCallback(
    (url: string) => {
      const origin = originOf(url);
      if (!origin || !locationOf(url)) {
        setAddressError(
          "Enter the full address of a shop page, starting with http:// or https://.",
        );
        return;
      }
      if (!isShopOrigin(origin, domains)) {
        const all = [domains.domain, ...domains.subdomains].filter(Boolean).join(", ");
        setAddressError(`That page is not on the account's domains (${all || "none set"}).`);
        return;
      }
      setAddressError(null);
      rememberOrigin(url);
      setReady(false);
      setTimedOut(false);
      setFrameLoaded(false);
      setSelection(null);
      setHover(null);
      setPreview(null);
      setBridgeError(null);
      setLocation(locationOf(url));
      setOpened((prev) => ({
        url: editorFrameUrl(url, window.location.origin),
        page: url,
        origin,
        n: (prev?.n ?? 0) + 1,
      }));
    },
    [domains],
  );

  // Open the page the address names when the editor starts with one (?page=).
  const openedInitial = useRef(false);
  useEffect(() => {
    if (openedInitial.current || !initialPage) return;
    openedInitial.current = true;
    open(initialPage);
  }, [initialPage, open]);

  useEffect(() => {
    if (!opened || ready) return;
    const timer = window.setTimeout(
      () => setTimedOut(true),
      frameLoaded ? BRIDGE_AFTER_LOAD_MS : BRIDGE_TIMEOUT_MS,
    );
    return () => window.clearTimeout(timer);
  }, [opened, ready, frameLoaded]);

  const locationRef = useRef(location);
  useEffect(() => {
    locationRef.current = location;
  });

  const onMessage = useCallback((m: BridgeMessage) => {
    switch (m.type) {
      case "ready": {
        setReady(true);
        setReadyCount((n) => n + 1);
        setTimedOut(false);
        const next = locationOf(m.url);
        const prev = locationRef.current;
        // A new page: what was selected on the old one is gone.
        if (!prev || !next || prev.pathname !== next.pathname || prev.hostname !== next.hostname)
          setSelection(null);
        setLocation(next);
        return;
      }
      case "hover":
        setHover(m.path ? { path: m.path, matchCount: m.matchCount } : null);
        return;
      case "selected":
        setSelection(m.selection);
        setPathText(m.selection?.path ?? "");
        setBridgeError(null);
        return;
      case "preview-applied":
        setPreview({ missing: m.missing, skipped: m.skipped });
        return;
      case "preview-cleared":
        setPreview(null);
        return;
      case "error":
        setBridgeError(
          m.code === "no-match"
            ? `Nothing on the page matches ${m.message}`
            : m.code === "invalid-path"
              ? `Not a valid CSS path: ${m.message}`
              : m.message,
        );
        return;
    }
  }, []);

  const send = useBridge(frameRef, opened?.origin ?? null, domains, onMessage);

  // ---- the chosen variation, previewed live ----
  const history = state.histories[variationId];
  const configs = useMemo(() => history?.present ?? [], [history]);
  const context = variations.find((v) => v.id === variationId)?.context;
  const deviceSpecific = !!context?.deviceSpecific;
  const shown = useMemo(
    () => (location && context ? previewConfigs(configs, variationId, context, location) : []),
    [configs, variationId, context, location],
  );
  const shownKey = JSON.stringify(shown);
  useEffect(() => {
    if (!ready) return;
    send({ type: "preview", configs: JSON.parse(shownKey) as typeof shown, device });
  }, [ready, readyCount, shownKey, device, send]);
  useEffect(() => {
    if (ready) send({ type: "select-mode", on: selectMode });
  }, [ready, readyCount, selectMode, send]);

  const edit = useCallback(
    (key: string | null, change: (c: ConfigDefinition[]) => ConfigDefinition[]) => {
      if (canEdit) dispatch({ type: "edit", variationId, key, change });
    },
    [variationId, canEdit],
  );
  const editSelected = useCallback(
    (key: string | null, e: Edit) => {
      if (!selection || !location) return;
      // A device-specific behaviour: element fields edited in this width are this device's.
      const change = deviceSpecific ? deviceEdit(device, e) : e;
      edit(key && `${device}:${selection.path}:${key}`, (c) =>
        editElement(c, selection.path, location, scope, change),
      );
    },
    [edit, selection, location, scope, deviceSpecific, device],
  );
  const undo = useCallback(() => dispatch({ type: "undo", variationId }), [variationId]);
  const redo = useCallback(() => dispatch({ type: "redo", variationId }), [variationId]);
  const navigate = useCallback(
    (direction: SelectionDirection) => send({ type: "navigate-selection", direction }),
    [send],
  );

  // The dashboard's keys (inputs keep their own undo and arrows).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (inEditable(e.target)) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && (key === "z" || key === "y") && !canEdit) return;
      if (mod && key === "z") {
        e.preventDefault();
        if (e.shiftKey) redo();
        else undo();
      } else if (mod && key === "y") {
        e.preventDefault();
        redo();
      } else if (e.altKey && NAV_KEYS[e.key] && selection) {
        e.preventDefault();
        navigate(NAV_KEYS[e.key]!);
      } else if (e.key === "Escape" && selection) {
        send({ type: "clear-selection" });
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [undo, redo, navigate, send, selection, canEdit]);

  const dirty = isDirty(state, variationId);
  const anyDirty = variations.some((v) => isDirty(state, v.id));
  useUnsavedWarning(anyDirty);

  const save = useSaveVariationConfigs();
  /** Each variation's configs as stored when last loaded or saved: a save checks them first. */
  const stored = useRef(initialState(experience).saved);
  const storedConfigs = (id: string) => stored.current[id] ?? [];
  const onSave = () => {
    const saving = configs;
    const savingId = variationId;
    save.mutate(
      {
        experienceId: experience.id,
        variationId: savingId,
        configs: saving,
        loaded: storedConfigs(savingId),
      },
      {
        onSuccess: (saved) => {
          stored.current[savingId] = variationConfigs(saved.experience, savingId) ?? saving;
          dispatch({ type: "saved", variationId: savingId, configs: saving });
        },
      },
    );
  };
  const reload = useReloadExperience();
  const onReload = () => {
    const reloadId = variationId;
    reload.mutate(experience.id, {
      onSuccess: (latest) => {
        const configs = variationConfigs(latest.experience, reloadId) ?? [];
        stored.current[reloadId] = configs;
        dispatch({ type: "reload", variationId: reloadId, configs });
        save.reset();
      },
    });
  };

  const switchVariation = (id: string) => {
    setVariationId(id);
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set("variation", id);
        return next;
      },
      { replace: true },
    );
  };

  const onOpen = (e: FormEvent) => {
    e.preventDefault();
    open(address.trim());
  };
  const onPath = (e: FormEvent) => {
    e.preventDefault();
    if (pathText.trim()) send({ type: "select-path", path: pathText.trim() });
  };

  const selectedConfig =
    selection && location
      ? configs[elementConfigIndex(configs, selection.path, location)]
      : undefined;
  const onThisPage = location ? configs.filter((c) => configOnPage(c, location)) : [];
  const offTarget = location && !pageTargeted(experience.pages, location);
  const ids = {
    address: useId(),
    variation: useId(),
    path: useId(),
    scope: useId(),
    pages: useId(),
  };
  const canUndo = !!history && history.past.length > 0;
  const canRedo = !!history && history.future.length > 0;

  return (
    <div className="ve">
      <header className="ve-bar">
        <Link
          className="ve-bar__back"
          to={paths.experience(experience.id)}
          onClick={(e) => {
            if (anyDirty && !window.confirm("Leave the visual editor without saving your changes?"))
              e.preventDefault();
          }}
        >
          ← {experience.name}
        </Link>
        <div className="ve-field ve-field--inline">
          <label className="ve-field__label" htmlFor={ids.variation}>
            Variation
          </label>
          <select
            id={ids.variation}
            className="field__input ve-input"
            value={variationId}
            onChange={(e) => switchVariation(e.target.value)}
          >
            {variations.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
                {isDirty(state, v.id) ? " (unsaved)" : ""}
              </option>
            ))}
          </select>
        </div>
        <div className="ve-toggle" role="group" aria-label="Preview width">
          {(["desktop", "mobile"] as const).map((d) => (
            <button
              key={d}
              type="button"
              className="button button--secondary button--small"
              aria-pressed={device === d}
              onClick={() => setDevice(d)}
            >
              {d === "desktop" ? "Desktop" : "Mobile"}
            </button>
          ))}
        </div>
        {canEdit ? (
          <>
            <div className="ve-toggle" role="group" aria-label="History">
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={undo}
                disabled={!canUndo}
                title="Undo (Ctrl+Z)"
              >
                Undo
              </button>
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={redo}
                disabled={!canRedo}
                title="Redo (Ctrl+Shift+Z)"
              >
                Redo
              </button>
            </div>
            <span className="ve-bar__status" role="status" data-testid="save-status">
              {save.isPending
                ? "Saving…"
                : dirty
                  ? "Unsaved changes"
                  : save.isSuccess && save.variables.variationId === variationId
                    ? "Saved"
                    : "No unsaved changes"}
            </span>
            <button
              type="button"
              className="button button--primary"
              onClick={onSave}
              disabled={save.isPending || !dirty}
            >
              Save variation
            </button>
          </>
        ) : (
          <span className="ve-bar__status" role="status" data-testid="read-only">
            View only: your role can look at the variations, not change them.
          </span>
        )}
      </header>
      {canEdit && save.isError && save.variables.variationId === variationId ? (
        <SaveError error={save.error} onReload={onReload} reloading={reload.isPending} />
      ) : null}

      <div className="ve-body">
        <section className="ve-stage" aria-label="Shop page">
          <form className="ve-address" onSubmit={onOpen}>
            <label className="ve-field__label" htmlFor={ids.address}>
              Page address
            </label>
            <input
              id={ids.address}
              className="field__input ve-input mono"
              list={ids.pages}
              value={address}
              placeholder="https://your-shop.example/products/…"
              onChange={(e) => setAddress(e.target.value)}
              aria-invalid={addressError ? true : undefined}
              aria-describedby={addressError ? `${ids.address}-error` : undefined}
            />
            <datalist id={ids.pages}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
            <button type="submit" className="button button--secondary">
              Open
            </button>
          </form>
          {addressError ? (
            <p className="form__error" role="alert" id={`${ids.address}-error`}>
              {addressError}
            </p>
          ) : null}
          {offTarget ? (
            <p className="notice notice--warning">
              This page is not one of the experience's target pages: the shop will not show changes
              made here until the experience targets it.
            </p>
          ) : null}
          {timedOut && opened ? (
            <PageProblem key={opened.n} url={opened.page} frameLoaded={frameLoaded} />
          ) : null}
          {preview && preview.missing.length > 0 ? (
            <p className="notice notice--warning" role="status">
              {preview.missing.length} change{preview.missing.length === 1 ? "" : "s"} found no
              element on this page.
            </p>
          ) : null}
          <div className="ve-frame-wrap">
            {opened ? (
              <>
                {!ready && !timedOut ? (
                  <div className="ve-frame-loading" role="status">
                    <span className="spinner" aria-hidden="true" /> Loading the page…
                  </div>
                ) : null}
                <iframe
                  ref={frameRef}
                  key={opened.n}
                  name="storefit-editor"
                  title="Shop page being edited"
                  className={`ve-frame ve-frame--${device}`}
                  style={device === "mobile" ? { width: MOBILE_WIDTH_PX } : undefined}
                  src={opened.url}
                  onLoad={() => setFrameLoaded(true)}
                />
              </>
            ) : (
              <div className="ve-frame-empty">
                <p>
                  Choose a page of the shop to edit: one the experience targets, or any address on{" "}
                  {domains.domain}.
                </p>
              </div>
            )}
          </div>
        </section>

        <aside className="ve-panel" aria-label="Changes">
          <OverlapNotice experience={experience} />
          <section className="ve-selection" aria-label="Selected element">
            <div className="ve-check">
              <input
                id={`${ids.path}-mode`}
                type="checkbox"
                checked={selectMode}
                onChange={(e) => setSelectMode(e.target.checked)}
              />
              <label htmlFor={`${ids.path}-mode`}>Select elements by clicking in the page</label>
            </div>
            <form className="ve-path" onSubmit={onPath}>
              <label className="ve-field__label" htmlFor={ids.path}>
                CSS path
              </label>
              <div className="ve-row">
                <input
                  id={ids.path}
                  className="field__input ve-input mono"
                  value={pathText}
                  placeholder={hover?.path ?? "Click an element in the page"}
                  onChange={(e) => {
                    setPathText(e.target.value);
                    // Highlight what the typed path matches, and count it (the bridge's `hover`).
                    if (ready) send({ type: "hover-path", path: e.target.value.trim() || null });
                  }}
                  onBlur={() => ready && send({ type: "hover-path", path: null })}
                  data-testid="selected-path"
                />
                <button
                  type="submit"
                  className="button button--secondary button--small"
                  disabled={!ready}
                >
                  Select
                </button>
              </div>
            </form>
            <p className="ve-hint" data-testid="match-count" aria-live="polite">
              {pathText.trim() &&
              pathText.trim() !== selection?.path &&
              hover?.path === pathText.trim()
                ? `${hover.matchCount} ${hover.matchCount === 1 ? "element matches" : "elements match"} the typed path`
                : selection
                  ? `<${selection.tagName}> · ${selection.matchCount} ${selection.matchCount === 1 ? "element matches" : "elements match"}`
                  : hover
                    ? `Pointer on ${hover.path}`
                    : "Nothing selected"}
            </p>
            {selection && selection.matchCount > 1 ? (
              <p className="notice notice--warning">
                This path matches {selection.matchCount} elements: a change applies to every one of
                them.
              </p>
            ) : null}
            {bridgeError ? (
              <p className="form__error" role="alert">
                {bridgeError}
              </p>
            ) : null}
            <div className="ve-row" role="group" aria-label="Move the selection">
              {NAV_LABELS.map(([direction, label, keys]) => (
                <button
                  key={direction}
                  type="button"
                  className="button button--secondary button--small"
                  disabled={!selection?.can[direction]}
                  onClick={() => navigate(direction)}
                  title={keys}
                  aria-keyshortcuts={keys
                    .replace("↑", "ArrowUp")
                    .replace("↓", "ArrowDown")
                    .replace("←", "ArrowLeft")
                    .replace("→", "ArrowRight")}
                >
                  {label}
                </button>
              ))}
            </div>
            {deviceSpecific ? (
              <p className="notice" data-testid="device-note">
                This variation changes elements per device: content, image, link, style and class
                edits apply to the {device} width shown; other changes apply to both.
              </p>
            ) : null}
            {canEdit ? (
              <div className="ve-field ve-field--inline">
                <label className="ve-field__label" htmlFor={ids.scope}>
                  New changes apply on
                </label>
                <select
                  id={ids.scope}
                  className="field__input ve-input"
                  value={scope}
                  onChange={(e) => setScope(e.target.value as ChangeScope)}
                >
                  <option value="page">This page only</option>
                  <option value="experience">Every page the experience targets</option>
                </select>
              </div>
            ) : null}
          </section>

          {selection ? (
            <ElementPanel
              key={`${variationId} ${selection.path} ${deviceSpecific ? device : ""}`}
              selection={selection}
              variation={
                deviceSpecific
                  ? deviceView(variationOf(selectedConfig), device)
                  : variationOf(selectedConfig)
              }
              onEdit={editSelected}
              readOnly={!canEdit}
            />
          ) : (
            <p className="ve-hint ve-panel__empty">
              {canEdit
                ? "Click an element in the page to change it. Keys: Alt+arrows move the selection, Ctrl+Z undoes, Ctrl+Shift+Z redoes."
                : "Click an element in the page to see its path and this variation's change of it. Keys: Alt+arrows move the selection."}
            </p>
          )}

          <section className="ve-section ve-changes" aria-label="Changes on this page">
            <h2 className="ve-section__title">Changes on this page</h2>
            {onThisPage.length === 0 ? (
              <p className="ve-hint">This variation changes nothing on this page.</p>
            ) : (
              <ul className="ve-changes__list">
                {onThisPage.map((c) => {
                  const path = c.properties?.element_path;
                  return (
                    <li key={c.config_id} className="ve-changes__item" data-testid="change-row">
                      <button
                        type="button"
                        className="ve-changes__path mono"
                        disabled={!path || !ready}
                        onClick={() => path && send({ type: "select-path", path })}
                      >
                        {path ?? templateOf(c)?.id ?? c.config_id}
                      </button>
                      <span className="ve-hint">{describeConfig(c)}</span>
                      {canEdit ? (
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          onClick={() =>
                            edit(null, (all) => all.filter((x) => x.config_id !== c.config_id))
                          }
                          aria-label={`Remove the change of ${path ?? c.config_id}`}
                        >
                          Remove
                        </button>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>

          {configs.length > onThisPage.length ? (
            <p className="ve-hint" data-testid="other-pages">
              {configs.length - onThisPage.length} more{" "}
              {configs.length - onThisPage.length === 1 ? "change" : "changes"} of this variation on
              other pages.
            </p>
          ) : null}

          {canEdit ? (
            <PopupForm
              disabled={!location}
              onInsert={(make) => location && edit(null, (all) => [...all, make(location, scope)])}
            />
          ) : null}
        </aside>
      </div>
    </div>
  );
}
