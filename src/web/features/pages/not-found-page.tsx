import { NotFound } from "../../components/ui/not-found";

export default function NotFoundPage() {
  return <NotFound />;
}
