// Install: the snippet to paste, the Shopify app-embed steps, and a live check that turns green
// when the first event from the shop arrives (the events query, polled every 2 s).
import { Link } from "react-router";
import { useAccount } from "../../api/account";
import { useSignedInSession } from "../../components/RequireSession";
import { PageHeader } from "../../components/PageHeader";
import { paths } from "../../paths";
import { InstallSnippet } from "../events/InstallSnippet";
import { CopyButton } from "./CopyButton";
import { InstallCheck } from "./InstallCheck";
import "./install.css";

export function InstallPage() {
  const { account } = useSignedInSession();
  const details = useAccount();
  const origin = window.location.origin;
  return (
    <>
      <title>Install · Storefit</title>
      <PageHeader title="Install" description={`Put Storefit on the pages of ${account.name}, then watch the first event arrive.`} />
      <div className="install-layout">
        <div className="install-steps">
          <section className="panel install-step" aria-labelledby="install-any-title">
            <h2 className="panel__title" id="install-any-title">
              Any shop: paste the snippet
            </h2>
            <p className="panel__description">
              One synchronous tag, first in the <code>&lt;head&gt;</code> of every page: it sets the account's settings and
              loads the script, which hides the page until it is personalized (at most the service time-out).
            </p>
            <InstallSnippet />
            {details.data ? (
              <p className="install-note">
                The script runs on <strong className="mono">{details.data.settings.domain}</strong>
                {details.data.settings.subdomains.length > 0 ? (
                  <>
                    {" "}
                    and <span className="mono">{details.data.settings.subdomains.join(", ")}</span>
                  </>
                ) : null}
                ; add other domains in <Link to={`${paths.settings}#general`}>settings</Link>.
              </p>
            ) : null}
          </section>

          <section className="panel install-step" aria-labelledby="install-shopify-title">
            <h2 className="panel__title" id="install-shopify-title">
              Shopify: switch on the app embed
            </h2>
            <ol className="install-list">
              <li>
                In your Shopify admin open <strong>Online Store → Themes</strong>, and on the live theme choose{" "}
                <strong>Customize</strong>.
              </li>
              <li>
                Open <strong>App embeds</strong> (the puzzle-piece icon), and switch <strong>Storefit</strong> on.
              </li>
              <li>
                Fill in its two settings:
                <dl className="install-values">
                  <dt>Client key</dt>
                  <dd>
                    <code data-testid="install-client-key">{account.client_key}</code>
                    <CopyButton text={account.client_key} label="Copy client key" />
                  </dd>
                  <dt>Storefit host</dt>
                  <dd>
                    <code data-testid="install-host">{origin}</code>
                    <CopyButton text={origin} label="Copy host" />
                  </dd>
                </dl>
              </li>
              <li>
                <strong>Save</strong>. The embed renders the same tag as the snippet in the theme's <code>&lt;head&gt;</code> (not
                inside the theme editor's preview).
              </li>
              <li>
                For orders and revenue from checkout, add the web pixel: <strong>Settings → Customer events → Add custom pixel</strong>,
                paste <a href={`${origin}/sdk/shopify-pixel.js`}>shopify-pixel.js</a>, then <strong>Save</strong> and{" "}
                <strong>Connect</strong>; and turn on <Link to={`${paths.settings}#flags`}>Shop platform integration</Link>.
              </li>
            </ol>
          </section>
        </div>
        <InstallCheck />
      </div>
    </>
  );
}
