// Account settings: one section per part of the settings global (product.md §2), each saved on
// its own; then the team and the secret keys. Owners change them; everyone else reads.
import { useAccount, useIsOwner } from "../../api/account";
import { PageHeader } from "../../components/PageHeader";
import { ErrorState, LoadingState } from "../../components/StatusMessage";
import { AccountStatus } from "./AccountStatus";
import { ActivePagesSection } from "./ActivePagesSection";
import { BlacklistsSection } from "./BlacklistsSection";
import { FlagsSection } from "./FlagsSection";
import { GeneralSection } from "./GeneralSection";
import { IntegrationsSection } from "./IntegrationsSection";
import { MembersSection } from "./MembersSection";
import { PagesSection } from "./PagesSection";
import { EventMergeSection, RevenueSection } from "./RulesSection";
import { SecretKeysSection } from "./SecretKeysSection";
import { TimeoutsSection } from "./TimeoutsSection";
import "./settings.css";

const CONTENTS = [
  ["status", "Account status"],
  ["general", "Shop and domains"],
  ["flags", "Script flags"],
  ["timeouts", "Time-outs"],
  ["integrations", "Integrations"],
  ["pages", "Page configurations"],
  ["active-pages", "Goal and rule pages"],
  ["revenue", "Revenue rules"],
  ["event-merge", "Event-merge rules"],
  ["blacklists", "Blacklists"],
] as const;

export function SettingsPage() {
  const account = useAccount();
  const isOwner = useIsOwner();
  const contents = isOwner ? [...CONTENTS, ["members", "Team members"] as const, ["keys", "Secret keys"] as const] : CONTENTS;

  return (
    <>
      <title>Account settings · Storefit</title>
      <PageHeader
        title="Account settings"
        description="What the snippet tells the storefront script, and who works on this account. Saved changes reach the snippet on its next load."
      />
      {account.data === undefined ? (
        account.isError ? (
          <ErrorState title="Could not load the account" error={account.error} onRetry={() => void account.refetch()} />
        ) : (
          <LoadingState label="Loading the account…" />
        )
      ) : (
        <div className="settings-layout">
          <nav className="settings-nav" aria-label="Settings sections">
            <ul>
              {contents.map(([id, label]) => (
                <li key={id}>
                  <a href={`#${id}`}>{label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="settings-sections">
            {isOwner ? null : (
              <p className="notice" role="note" data-testid="read-only-notice">
                Only an owner can change the account. You can read everything here.
              </p>
            )}
            <p className="settings-key">
              Client key <code data-testid="client-key">{account.data.client_key}</code>: public, in the snippet. The
              script uses it to fetch changes and send events; it cannot read or change the account.
            </p>
            <AccountStatus account={account.data} />
            <GeneralSection account={account.data} canEdit={isOwner} />
            <FlagsSection account={account.data} canEdit={isOwner} />
            <TimeoutsSection account={account.data} canEdit={isOwner} />
            <IntegrationsSection account={account.data} canEdit={isOwner} />
            <PagesSection account={account.data} canEdit={isOwner} />
            <ActivePagesSection account={account.data} canEdit={isOwner} />
            <RevenueSection account={account.data} canEdit={isOwner} />
            <EventMergeSection account={account.data} canEdit={isOwner} />
            <BlacklistsSection account={account.data} canEdit={isOwner} />
            {isOwner ? (
              <>
                <MembersSection />
                <SecretKeysSection />
              </>
            ) : null}
          </div>
        </div>
      )}
    </>
  );
}
