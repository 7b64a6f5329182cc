// /redirect/{path} (the route named Redirect, spec §2): sends the user on to /{path}, keeping the query string.
import { Navigate, useLocation, useParams } from "react-router-dom";

export function RedirectPage() {
  const { "*": rest = "" } = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${rest}${search}`} replace />;
}
