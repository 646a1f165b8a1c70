export default function PurchasePage() {
  return <div className="p-8">Purchase</div>;
}
