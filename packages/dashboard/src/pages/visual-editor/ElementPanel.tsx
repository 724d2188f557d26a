// The panel that edits what the storefront script can apply to the selected element (spec §3
// "Variation fields" and customfit_meta), one section a kind of change (panel/): content, image,
// link, styles, classes, arrange (move, swap, duplicate), inserted HTML and click actions. Each
// control shows the saved change when there is one and the element's own value otherwise; every
// edit goes through `onEdit`, which keeps the undo history (edits of one field under one key are
// one step).
import type { ElementInfo, GoalDefinition, HtmlElementVariation } from "@storefit/contract";
import { ArrangeSection } from "./panel/ArrangeSection";
import { ClassesSection } from "./panel/ClassesSection";
import { ClickSection } from "./panel/ClickSection";
import { ContentSection } from "./panel/ContentSection";
import { ImageSection } from "./panel/ImageSection";
import { InsertHtmlSection } from "./panel/InsertHtmlSection";
import { LinkSection } from "./panel/LinkSection";
import type { Edit } from "./panel/Section";
import { StyleSection } from "./panel/StyleSection";

export type { Edit } from "./panel/Section";

const VOID_TAGS = /^(?:img|input|br|hr|source|track|wbr|area|col|embed|meta|link|base|param)$/;

export function ElementPanel({
  selection,
  variation,
  onEdit,
  readOnly = false,
  clickGoals = [],
}: {
  selection: ElementInfo;
  /** The experience's click goals: the click section says which one counts its clicks. */
  clickGoals?: readonly GoalDefinition[];
  /** A viewer's panel: values shown, nothing editable, no action buttons. */
  readOnly?: boolean;
  /** The variation's change of this element ({} when it has none yet). */
  variation: HtmlElementVariation;
  /** `key` names the field: edits with the same key in a row are one undo step. */
  onEdit: (key: string | null, edit: Edit) => void;
}) {
  const tag = selection.tagName;
  const isImage = tag === "img" || tag === "source" || "src" in selection.attributes;
  const isLink = tag === "a" || "href" in selection.attributes;
  // Elements without content (an image, a line break) have no text or HTML to edit.
  const hasContent = !VOID_TAGS.test(tag);
  const section = { selection, variation, onEdit, readOnly };

  return (
    // A viewer's panel is one disabled fieldset: every field shows its value, none takes input.
    <fieldset className="ve-panel__sections" disabled={readOnly}>
      {hasContent ? <ContentSection {...section} /> : null}
      {isImage ? <ImageSection {...section} /> : null}
      {isLink ? <LinkSection {...section} /> : null}
      <StyleSection {...section} />
      <ClassesSection {...section} />
      <ArrangeSection {...section} />
      <InsertHtmlSection {...section} />
      <ClickSection {...section} clickGoals={clickGoals} />
    </fieldset>
  );
}
