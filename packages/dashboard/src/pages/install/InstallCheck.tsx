// "Is it installed?": green once the service has stored an event for this account. It polls the
// events list (every 2 s, the live events query) and shows the first event the shop sent — the
// oldest stored one while the whole history fits in one page — and warns when events come from a
// host the settings do not list (the script would stop there, CFINIT005).
import type { StoredEventView } from "@storefit/contract";
import { Link } from "react-router";
import { useAccount } from "../../api/account";
import { EVENTS_REFETCH_INTERVAL_MS, useEventPage } from "../../api/events";
import { ErrorState } from "../../components/StatusMessage";
import { formatEventTime } from "../../format";
import { paths } from "../../paths";
import { shopPageUrl } from "../../shop-address";

function isAccountHost(host: string, domain: string, subdomains: readonly string[]): boolean {
  const h = host.toLowerCase();
  if (h === domain.toLowerCase()) return true;
  return subdomains.some((s) => (s.startsWith("*.") ? h.endsWith(s.slice(1).toLowerCase()) : h === s.toLowerCase()));
}

export function InstallCheck() {
  const events = useEventPage({});
  const account = useAccount();
  const data = events.data;
  // The shop's home page at its address (shop-address.ts: the port of a shop in development too).
  const settings = account.data?.settings;
  const shopHome = settings?.domain ? shopPageUrl(settings.domain, "/", settings) : null;

  let body;
  if (!data) {
    body = events.isError ? (
      <ErrorState title="Could not check" error={events.error} onRetry={() => void events.refetch()} />
    ) : (
      <p className="install-check__text">Checking…</p>
    );
  } else if (data.total === 0) {
    body = (
      <>
        <p className="install-check__title">
          <span className="spinner" aria-hidden="true" /> Waiting for the first event
        </p>
        <p className="install-check__text">
          Open any page of your shop in another tab
          {shopHome ? (
            <>
              , such as{" "}
              <a href={shopHome} target="_blank" rel="noreferrer" className="mono" data-testid="install-shop-link">
                {shopHome}
              </a>
            </>
          ) : null}
          . This turns green within seconds of the script's first PAGE event.
        </p>
      </>
    );
  } else {
    const whole = data.total <= data.events.length;
    const shown: StoredEventView | undefined = whole ? data.events[data.events.length - 1] : data.events[0];
    const strangers = settings
      ? [...new Set(data.events.map((e) => e.domain).filter((d) => d && !isAccountHost(d, settings.domain, settings.subdomains)))]
      : [];
    body = (
      <>
        <p className="install-check__title">✓ Installed: the script is sending events</p>
        {shown ? (
          <dl className="install-event" data-testid="install-first-event">
            <dt>{whole ? "First event" : "Latest event"}</dt>
            <dd>
              <span className="event-type">{shown.event_type}</span> on <span className="mono">{shown.domain}</span>
              {shown.page_path ? <span className="mono">{shown.page_path}</span> : null}
            </dd>
            <dt>Received</dt>
            <dd>
              <time dateTime={shown.received_at}>{formatEventTime(shown.received_at)}</time>
            </dd>
            <dt>Events so far</dt>
            <dd>{data.total}</dd>
          </dl>
        ) : null}
        {strangers.length > 0 ? (
          <p className="notice notice--warning">
            Events came from {strangers.join(", ")}, which the settings do not list. Add it in{" "}
            <Link to={`${paths.settings}#general`}>Shop and domains</Link>.
          </p>
        ) : null}
        <p className="install-check__text">
          <Link to={paths.events}>Open the event stream</Link>
        </p>
      </>
    );
  }

  const state = !data ? "checking" : data.total === 0 ? "waiting" : "installed";
  return (
    <section className={`panel install-check install-check--${state}`} aria-labelledby="install-check-title" data-testid="install-status" data-state={state}>
      <h2 className="panel__title" id="install-check-title">
        Is it installed?
      </h2>
      <div aria-live="polite">{body}</div>
      <p className="stat-card__hint">Checks every {EVENTS_REFETCH_INTERVAL_MS / 1000} s.</p>
    </section>
  );
}
