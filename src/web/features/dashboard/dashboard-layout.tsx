import { Outlet } from "react-router";
import { DASHBOARD_TEXT } from "../../../contract/texts/shop";
export default function DashboardLayout() {
  return (
    <div className="p-8">
      <h1>{DASHBOARD_TEXT.welcome}</h1>
      <Outlet />
    </div>
  );
}
