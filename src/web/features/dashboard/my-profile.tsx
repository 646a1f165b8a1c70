export default function Page() { return <div>my-profile</div>; }
