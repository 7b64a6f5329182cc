// The platform's receiving accounts (issue 28): the host keeps them in the setting Wallet.ReceivingAccounts (validated
// when saved, settings/known.ts); every logged-in user reads them (GetReceivingAccounts) for the top-up dialog, and a
// QR code the host uploaded (a receipt image under the platform's tenant) is served to every tenant and kept by the
// orphan sweep while an account names it.
import type { Tx } from "../../db/client.ts";
import { parseReceivingAccounts, type ReceivingAccount } from "#shared/contract/receiving-accounts.ts";
import { getSettingValue, SettingKeys } from "../../db/settings.ts";

/** The accounts as the host saved them; none when unset. */
export async function readReceivingAccounts(tx: Tx): Promise<ReceivingAccount[]> {
  return parseReceivingAccounts(await getSettingValue(tx, SettingKeys.receivingAccounts));
}

/** The QR images the accounts name (pics). */
export async function receivingAccountPics(tx: Tx): Promise<Set<string>> {
  return new Set((await readReceivingAccounts(tx)).flatMap((a) => (a.qrPic ? [a.qrPic] : [])));
}
