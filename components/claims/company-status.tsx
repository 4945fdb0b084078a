import type { ClaimUi } from "./types";

export const companyStatusUi: ClaimUi = {
  type: "company_status",
  scope: () => ({ notProved: "Anything at all: the statement is the account's own and was not checked against a register or any other source." }),
};
