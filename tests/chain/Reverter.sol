// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// A contract every payment to which fails: for evm_transaction's "reverted" case, a
/// transaction that is mined (it has a receipt and a block) with status 0.
contract Reverter {
    error Refused();

    function pay() external payable {
        revert Refused();
    }
}
