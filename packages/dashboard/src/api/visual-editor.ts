// The visual editor's names for hooks that live with their resource: the experience and its
// save in experiences.ts, the account (its shop domains, docs/visual-editor.md "Origins") in
// account.ts. Kept so pages/visual-editor imports keep working while it is being split; new code
// imports from experiences.ts and account.ts.
import { useAccount } from "./account";
import { useVersionedExperience } from "./experiences";

export {
  VARIATION_GONE,
  useReloadExperience,
  useSaveVariationConfigs,
  variationConfigs,
  withVariationConfigs,
} from "./experiences";
export type { SaveVariationConfigs } from "./experiences";

/** The experience being edited; the operator's unsaved edits live in the page, not in a form. */
export const useEditedExperience = (id: string) =>
  useVersionedExperience(id, { refetchOnWindowFocus: false });

/** The account, for its shop domains (settings.domain and settings.subdomains). */
export const useShopAccount = useAccount;
