//! The package's exceptions, defined in Python (`carcassonne/errors.py`) so that they can
//! subclass both `CarcassonneError` and `ValueError`, and raised from here.

use pyo3::PyErr;

pyo3::import_exception!(carcassonne.errors, CarcassonneError);
pyo3::import_exception!(carcassonne.errors, IllegalActionError);
pyo3::import_exception!(carcassonne.errors, InvalidConfigError);
pyo3::import_exception!(carcassonne.errors, InvalidRecordError);
pyo3::import_exception!(carcassonne.errors, InvalidArgumentError);
pyo3::import_exception!(carcassonne.errors, ConcurrentUseError);

/// An action that is not legal now, or is malformed.
pub fn illegal(message: impl Into<String>) -> PyErr {
    IllegalActionError::new_err(message.into())
}

/// A bad configuration (the message starts with the field).
pub fn invalid_config(message: impl Into<String>) -> PyErr {
    InvalidConfigError::new_err(message.into())
}

/// A record that cannot be read or does not replay.
pub fn invalid_record(message: impl Into<String>) -> PyErr {
    InvalidRecordError::new_err(message.into())
}

/// A bad argument: a seat, a buffer, an id out of range.
pub fn invalid_argument(message: impl Into<String>) -> PyErr {
    InvalidArgumentError::new_err(message.into())
}

/// A call that the game's state does not allow (e.g. a flat step at a chance node).
pub fn state_error(message: impl Into<String>) -> PyErr {
    CarcassonneError::new_err(message.into())
}

/// A `VectorEnv` called while another thread's call on it runs.
pub fn concurrent_use_error(message: impl Into<String>) -> PyErr {
    ConcurrentUseError::new_err(message.into())
}
