// Hardhat 2 configuration for the test chain only: tests/chain/hardhat-node.ts runs
// `hardhat node` with it. Hardhat compiles nothing here (solcjs does, in contracts.ts).
// PRS_TEST_CHAIN_ID lets the node stand in for a named network (base = 8453, ...).
module.exports = {
  networks: {
    hardhat: {
      chainId: Number(process.env.PRS_TEST_CHAIN_ID || 31337),
      // The default test mnemonic: account #0 is 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266.
      accounts: { count: 3 },
    },
  },
};
