export default function Page() { return <div>add-review</div>; }
