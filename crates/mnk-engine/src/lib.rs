//! mnk-engine
