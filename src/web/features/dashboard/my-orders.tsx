export default function Page() { return <div>my-orders</div>; }
