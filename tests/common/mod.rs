//! Shared by the test binaries; each uses a part of it.
#![allow(dead_code)]

pub mod c_abi;
pub mod dat;
pub mod judge;
