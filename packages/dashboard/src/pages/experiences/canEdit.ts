import { useSignedInSession } from "../../components/RequireSession";

/** Viewers read everything and change nothing (the service refuses them too: 403). */
export function useCanEdit(): boolean {
  return useSignedInSession().user.role !== "viewer";
}
