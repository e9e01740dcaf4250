// Type-checked by `tsc --noEmit` (clients/js/test/check-types.sh): the declarations describe the
// module as an app uses it.
import { TipcClient, TipcError, type ActionTap, type ReportArm, type Donation, type Snapshot, type Tip, type TipcErrorCode } from "../tipc.js";

async function journey(): Promise<void> {
  const client = new TipcClient("https://tips.example.com", { token: "t", retries: 2 });
  const user = client.user("ann");
  const tips: Tip[] = await user.tips({ locale: "de-CH", values: { shortcut: "⌘K" } });
  const first: Tip | undefined = tips[0];
  const arm: string | undefined = first?.experiment !== undefined ? first.arm : undefined;
  void arm;
  if (first?.shouldDisplay) {
    const shown: Tip = await user.recordDisplay(first.id, { milliseconds: 1500 });
    const status: string = shown.status;
    void status;
  }
  await user.donate("backyardDetailOpened", { value: { backyardID: 7 }, date: new Date() });
  const batch: Donation[] = await user.donateBatch([{ event: "backyardDetailOpened", value: { backyardID: 7 } }, { event: "appOpened", date: new Date() }]);
  void batch;
  const offered: Tip | null = await user.groupTip("onboarding", { locale: "de" });
  const reason: string | undefined = offered?.reason;
  void reason;
  const exported: Snapshot = await user.export();
  void exported;
  await user.setParameter("isSignedIn", true);
  const tap: ActionTap = await user.recordAction("favoriteBackyard", "favorite", { date: new Date() });
  void tap.id;
  await user.invalidate("favoriteBackyard", "tipClosed");
  const pack = await client.pack();
  if (!pack.notModified) {
    const bytes: Uint8Array = pack.bytes;
    void bytes;
  }
  const report = await client.report({ experiment: "favoriteCopy", at: new Date() });
  for (const experiment of report.experiments) {
    const baseline: ReportArm | undefined = experiment.arms[0];
    const rate: number | null | undefined = baseline?.conversionRate;
    void rate;
  }
  try {
    await user.reset("favoriteBackyard");
    await user.delete();
  } catch (error) {
    if (error instanceof TipcError) {
      const code: TipcErrorCode = error.code;
      const status: number = error.status;
      void code; void status;
    }
  }
}
void journey;
