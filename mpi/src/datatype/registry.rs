//! Datatype handles: predefined ones (fixed layouts) and user ones in a generational
//! [`Table`], each with its commit flag and name. Freed and forged handles are detected.

use super::layout::Type;
use super::predefined;
use crate::consts::*;
use crate::errors::report::{MpiError, Result};
use crate::table::{Table, USER_HANDLES};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;

/// A user datatype handle's state.
struct Entry {
    ty: Arc<Type>,
    committed: bool,
    name: Option<String>,
    /// Owned by the library (`MPI_Type_create_f90_*` results): the user may not free it.
    fixed: bool,
}

static TYPES: Mutex<Table<Entry>> = Mutex::new(Table::new(USER_HANDLES));

fn invalid(h: MPI_Datatype) -> MpiError {
    if h == MPI_DATATYPE_NULL {
        MpiError::new(MPI_ERR_TYPE, "datatype is MPI_DATATYPE_NULL")
    } else {
        MpiError::new(
            MPI_ERR_TYPE,
            format!("invalid or freed datatype handle {h:#x}"),
        )
    }
}

/// The layout behind `h` (committed or not).
pub fn layout(h: MPI_Datatype) -> Result<Arc<Type>> {
    if let Some(t) = predefined::get(h) {
        return Ok(t);
    }
    TYPES
        .lock()
        .get(h)
        .map(|e| e.ty.clone())
        .ok_or_else(|| invalid(h))
}

/// The layout behind `h` for communication: it must be committed.
pub fn committed(h: MPI_Datatype) -> Result<Arc<Type>> {
    if let Some(t) = predefined::get(h) {
        return Ok(t);
    }
    let t = TYPES.lock();
    let e = t.get(h).ok_or_else(|| invalid(h))?;
    if !e.committed {
        return Err(MpiError::new(
            MPI_ERR_TYPE,
            format!("datatype {h:#x} is not committed (call MPI_Type_commit first)"),
        ));
    }
    Ok(e.ty.clone())
}

/// A layout as a buffer description holds it: a predefined one borrowed from the process-wide
/// table (no reference count moves per call), or a user one shared.
#[derive(Debug, Clone)]
pub enum TypeRef {
    /// A predefined datatype's layout (lives as long as the process).
    Predefined(&'static Arc<Type>),
    /// A user datatype's layout.
    User(Arc<Type>),
}

impl std::ops::Deref for TypeRef {
    type Target = Type;

    fn deref(&self) -> &Type {
        match self {
            TypeRef::Predefined(t) => t,
            TypeRef::User(t) => t,
        }
    }
}

impl TypeRef {
    /// The layout as a shared handle (for whatever outlives the call, e.g. a user reduction).
    pub fn to_arc(&self) -> Arc<Type> {
        match self {
            TypeRef::Predefined(t) => Arc::clone(t),
            TypeRef::User(t) => t.clone(),
        }
    }
}

/// [`committed`], borrowing a predefined layout instead of counting a reference to it.
pub fn committed_ref(h: MPI_Datatype) -> Result<TypeRef> {
    match predefined::borrowed(h) {
        Some(t) => Ok(TypeRef::Predefined(t)),
        None => committed(h).map(TypeRef::User),
    }
}

/// Registers a new (uncommitted unless `committed`) handle for `ty`.
pub fn insert(ty: Arc<Type>, committed: bool) -> Result<MPI_Datatype> {
    TYPES
        .lock()
        .insert(Entry {
            ty,
            committed,
            name: None,
            fixed: false,
        })
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many live datatypes"))
}

/// Registers a committed handle for `ty` that the user may not free (it lives as long as the
/// process, like a predefined one).
pub fn insert_fixed(ty: Arc<Type>) -> Result<MPI_Datatype> {
    TYPES
        .lock()
        .insert(Entry {
            ty,
            committed: true,
            name: None,
            fixed: true,
        })
        .ok_or_else(|| MpiError::new(MPI_ERR_NO_MEM, "too many live datatypes"))
}

/// Whether `h` is a library-owned handle from [`insert_fixed`].
pub fn is_fixed(h: MPI_Datatype) -> bool {
    TYPES.lock().get(h).is_some_and(|e| e.fixed)
}

fn user_only(h: MPI_Datatype, what: &str) -> Result<()> {
    if predefined::is_predefined(h) {
        return Err(MpiError::new(
            MPI_ERR_TYPE,
            format!("cannot {what} the predefined datatype {h:#x}"),
        ));
    }
    Ok(())
}

/// Marks `h` committed (predefined types are always committed).
pub fn commit(h: MPI_Datatype) -> Result<()> {
    if predefined::is_predefined(h) {
        return Ok(());
    }
    let mut t = TYPES.lock();
    t.get_mut(h).ok_or_else(|| invalid(h))?.committed = true;
    Ok(())
}

/// Whether `h` is committed.
pub fn is_committed(h: MPI_Datatype) -> Result<bool> {
    if predefined::is_predefined(h) {
        return Ok(true);
    }
    Ok(TYPES.lock().get(h).ok_or_else(|| invalid(h))?.committed)
}

/// Frees user handle `h`.
pub fn free(h: MPI_Datatype) -> Result<()> {
    check_free(h)?;
    TYPES.lock().remove(h).map(drop).ok_or_else(|| invalid(h))
}

/// Whether the user may free `h`: a live handle, neither predefined nor library-owned.
pub fn check_free(h: MPI_Datatype) -> Result<()> {
    user_only(h, "free")?;
    if TYPES.lock().get(h).ok_or_else(|| invalid(h))?.fixed {
        return Err(MpiError::new(
            MPI_ERR_TYPE,
            format!(
                "cannot free datatype {h:#x}: it comes from MPI_Type_create_f90_* (predefined)"
            ),
        ));
    }
    Ok(())
}

/// The name of `h`: the set one, else the predefined name, else empty
/// (`MPI_DATATYPE_NULL` is named `"MPI_DATATYPE_NULL"`, as MPICH and Open MPI do).
pub fn name(h: MPI_Datatype) -> Result<String> {
    if h == MPI_DATATYPE_NULL {
        return Ok("MPI_DATATYPE_NULL".to_string());
    }
    if let Some(t) = predefined::get(h) {
        let renamed = RENAMED.lock().as_ref().and_then(|m| m.get(&h).cloned());
        return Ok(renamed.unwrap_or_else(|| t.name.to_string()));
    }
    let t = TYPES.lock();
    let e = t.get(h).ok_or_else(|| invalid(h))?;
    Ok(e.name.clone().unwrap_or_default())
}

/// Names given to predefined handles (MPI lets a program rename them too).
static RENAMED: Mutex<Option<HashMap<MPI_Datatype, String>>> = Mutex::new(None);

/// Sets the name of handle `h`.
pub fn set_name(h: MPI_Datatype, name: String) -> Result<()> {
    if predefined::is_predefined(h) {
        RENAMED
            .lock()
            .get_or_insert_with(HashMap::new)
            .insert(h, name);
        return Ok(());
    }
    let mut t = TYPES.lock();
    t.get_mut(h).ok_or_else(|| invalid(h))?.name = Some(name);
    Ok(())
}

/// Whether `h` is a predefined or live user datatype (for `MPI_Type_fromint`).
pub fn is_valid(h: MPI_Datatype) -> bool {
    predefined::is_predefined(h) || TYPES.lock().get(h).is_some()
}
