export default function AdminPage() { return <div>Admin</div>; }
