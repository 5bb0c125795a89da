//! Shared by the test binaries; each uses a part of it.
#![allow(dead_code)]

pub mod dat;
pub mod judge;
