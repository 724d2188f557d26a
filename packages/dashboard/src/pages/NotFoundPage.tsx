import { Link } from "react-router";
import { paths } from "../paths";
import { PageHeader } from "../components/PageHeader";

export function NotFoundPage() {
  return (
    <>
      <title>Not found · Storefit</title>
      <PageHeader title="Page not found" description="There is nothing at this address." />
      <p>
        <Link to={paths.experiences}>Go to experiences</Link>
      </p>
    </>
  );
}
