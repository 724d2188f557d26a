import { paths } from "../../paths";

/** The editor shares the list's route: `?audience=<id>`, or `?audience=new`. */
export const AUDIENCE_PARAM = "audience";
export const NEW_AUDIENCE = "new";

export function audienceHref(id: string): string {
  return `${paths.audiences}?${AUDIENCE_PARAM}=${encodeURIComponent(id)}`;
}
