// The account's states that Storefit sets, not the operator (a disabled account, a lapsed
// subscription, the plan's visitor limit): shown as read-only status with what each means for the
// shop, never as settings to tick. The service refuses an owner's change to them
// (packages/server/src/routes/admin-account.ts).
import type { AccountFlags, AccountView } from "@storefit/contract";

export type ProviderState = "account_enabled" | "subscription_expired" | "personalized_users_limit_exceeded";

type Line = { name: ProviderState; label: string; ok: string; problem: string; explain: string; isProblem: (value: boolean) => boolean };

const LINES: readonly Line[] = [
  {
    name: "account_enabled",
    label: "Account",
    ok: "Enabled",
    problem: "Disabled",
    explain: "The script does nothing on the shop's pages while the account is disabled. Contact Storefit to enable it.",
    isProblem: (value) => !value,
  },
  {
    name: "subscription_expired",
    label: "Subscription",
    ok: "Active",
    problem: "Expired",
    explain: "The script stops on the shop's pages until the subscription is renewed.",
    isProblem: (value) => value,
  },
  {
    name: "personalized_users_limit_exceeded",
    label: "Visitor limit",
    ok: "Within the plan",
    problem: "Reached",
    explain: "The plan's limit of personalized visitors is reached: new visitors see the shop's original pages until the plan allows more.",
    isProblem: (value) => value,
  },
];

const DEFAULTS: Pick<AccountFlags, ProviderState> = { account_enabled: true, subscription_expired: false, personalized_users_limit_exceeded: false };

export function AccountStatus({ account }: { account: AccountView }) {
  return (
    <section className="panel settings-section" id="status" aria-labelledby="status-title" data-testid="account-status">
      <h2 className="panel__title" id="status-title">
        Account status
      </h2>
      <p className="panel__description">Set by Storefit from the account's plan; shown here so you know what the script does.</p>
      <dl className="account-status">
        {LINES.map((line) => {
          const problem = line.isProblem(account.settings[line.name] ?? DEFAULTS[line.name]);
          return (
            <div key={line.name} className="account-status__line" data-testid={`status-${line.name}`}>
              <dt>{line.label}</dt>
              <dd>
                <span className={`badge ${problem ? "badge--paused" : "badge--running"}`}>{problem ? line.problem : line.ok}</span>
                {problem ? <span className="account-status__explain">{line.explain}</span> : null}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
