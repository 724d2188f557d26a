import type { AccountView } from "@storefit/contract";
import { TextArea } from "../../components/form";
import { type SectionProps, SettingsSection, useSettingsForm } from "./SettingsSection";
import { lines, linesProblem, regexProblem } from "./validation";

type Values = { page_blacklist: string; referrer_blacklist: string };

const toForm = (a: AccountView): Values => ({
  page_blacklist: a.settings.page_blacklist.join("\n"),
  referrer_blacklist: a.settings.referrer_blacklist.join("\n"),
});

// The service keeps an invalid pattern (it matches nothing, spec Appendix A); here it is refused,
// because a pattern that silently matches nothing is never what the operator meant.
const patterns = (v: string) =>
  linesProblem(v, 200, (line) => (line.length > 2048 ? "A pattern has at most 2048 characters." : regexProblem(line)));

export function BlacklistsSection({ account, canEdit }: SectionProps) {
  const { form, section } = useSettingsForm(account, toForm, (v) => ({
    settings: { page_blacklist: lines(v.page_blacklist), referrer_blacklist: lines(v.referrer_blacklist) },
  }));
  return (
    <SettingsSection
      {...section}
      id="blacklists"
      title="Blacklists"
      description="Pages and referrers the script ignores: regular expressions, one per line."
      canEdit={canEdit}
    >
      <div className="settings-grid settings-grid--wide">
        <TextArea rows={4} mono control={form.control} name="page_blacklist" label="Page blacklist" placeholder={"/checkout\n^/account/"} rules={{ validate: patterns }} />
        <TextArea rows={4} mono control={form.control} name="referrer_blacklist" label="Referrer blacklist" placeholder="spam\\.example" rules={{ validate: patterns }} />
      </div>
    </SettingsSection>
  );
}
