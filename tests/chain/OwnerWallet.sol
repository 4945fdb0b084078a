// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// A minimal EIP-1271 smart account for the tests: a signature is valid when it was
/// made over the hash by the owner's key (plain ecrecover, no prefixing of its own).
contract OwnerWallet {
    bytes4 internal constant MAGIC = 0x1626ba7e;
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC : bytes4(0xffffffff);
    }
}

/// CREATE2 factory for OwnerWallet: the account's address is known before it exists,
/// which is what EIP-6492 signatures of counterfactual accounts rely on.
contract OwnerWalletFactory {
    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = address(new OwnerWallet{salt: salt}(owner));
    }
}
