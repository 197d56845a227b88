//! MPI_T categories, enumerations, events and event sources (see [`crate::tools`]): two
//! categories over the variables, no enumeration, no event, one source (the `MPI_Wtime`
//! clock).

use super::vars::{CVARS, PVARS};
use super::{
    MPI_T_ERR_INVALID_HANDLE, MPI_T_ERR_INVALID_NAME, call, in_str, index, out, put, put_str, t_err,
};
use crate::consts::*;
use crate::errors::report::MpiError;
use std::ffi::{c_char, c_int, c_void};

/// One category: a name, a description, and which variables it holds.
struct Category {
    name: &'static str,
    desc: &'static str,
    cvars: bool,
}

static CATEGORIES: &[Category] = &[
    Category {
        name: "nexar_settings",
        desc: "The settings nexar's engine runs with (read once at start-up)",
        cvars: true,
    },
    Category {
        name: "nexar_traffic",
        desc: "What the transports carried, and the unexpected-message queue",
        cvars: false,
    },
];

/// The variable indices of category `c`.
fn members(c: &Category) -> std::ops::Range<usize> {
    if c.cvars {
        0..CVARS.len()
    } else {
        0..PVARS.len()
    }
}

/// Writes up to `len` indices of `range` into `indices`.
fn write_indices(
    range: std::ops::Range<usize>,
    len: c_int,
    indices: *mut c_int,
) -> Result<(), MpiError> {
    let n = usize::try_from(len).unwrap_or(0).min(range.len());
    if n > 0 {
        out(indices, "indices")?;
    }
    for (k, i) in range.take(n).enumerate() {
        // SAFETY: `indices` holds `len` ints per the MPI contract; k < len.
        unsafe { indices.add(k).write(i as c_int) };
    }
    Ok(())
}

fn no_event() -> MpiError {
    t_err(
        MPI_T_ERR_INVALID_HANDLE,
        "nexar defines no events: the handle is not valid",
    )
}

fn no_enum() -> MpiError {
    t_err(
        MPI_T_ERR_INVALID_HANDLE,
        "nexar defines no enumerations: the handle is not valid",
    )
}

mpi_fn! {
    /// The number of categories: 2.
    fn MPI_T_category_get_num(num_cat: *mut c_int) -> c_int => PMPI_T_category_get_num {
        call("MPI_T_category_get_num", || {
            out(num_cat, "num_cat")?;
            put(num_cat, CATEGORIES.len() as c_int);
            Ok(())
        })
    }

    /// Describes category `cat_index` (every output may be NULL).
    fn MPI_T_category_get_info(cat_index: c_int, name: *mut c_char, name_len: *mut c_int,
        desc: *mut c_char, desc_len: *mut c_int, num_cvars: *mut c_int, num_pvars: *mut c_int,
        num_categories: *mut c_int) -> c_int => PMPI_T_category_get_info
    {
        call("MPI_T_category_get_info", || {
            let c = &CATEGORIES[index(cat_index, CATEGORIES.len(), "category")?];
            put_str(c.name, name, name_len);
            put_str(c.desc, desc, desc_len);
            put(num_cvars, if c.cvars { CVARS.len() as c_int } else { 0 });
            put(num_pvars, if c.cvars { 0 } else { PVARS.len() as c_int });
            put(num_categories, 0);
            Ok(())
        })
    }

    /// The index of category `name`.
    fn MPI_T_category_get_index(name: *const c_char, cat_index: *mut c_int) -> c_int
        => PMPI_T_category_get_index
    {
        call("MPI_T_category_get_index", || {
            out(cat_index, "cat_index")?;
            let n = in_str(name, "name")?;
            let i = CATEGORIES.iter().position(|c| c.name == n).ok_or_else(|| {
                t_err(MPI_T_ERR_INVALID_NAME, format!("no category named \"{n}\""))
            })?;
            put(cat_index, i as c_int);
            Ok(())
        })
    }

    /// The first `len` control variables of category `cat_index`.
    fn MPI_T_category_get_cvars(cat_index: c_int, len: c_int, indices: *mut c_int) -> c_int
        => PMPI_T_category_get_cvars
    {
        call("MPI_T_category_get_cvars", || {
            let c = &CATEGORIES[index(cat_index, CATEGORIES.len(), "category")?];
            write_indices(if c.cvars { members(c) } else { 0..0 }, len, indices)
        })
    }

    /// The first `len` performance variables of category `cat_index`.
    fn MPI_T_category_get_pvars(cat_index: c_int, len: c_int, indices: *mut c_int) -> c_int
        => PMPI_T_category_get_pvars
    {
        call("MPI_T_category_get_pvars", || {
            let c = &CATEGORIES[index(cat_index, CATEGORIES.len(), "category")?];
            write_indices(if c.cvars { 0..0 } else { members(c) }, len, indices)
        })
    }

    /// Subcategories: none.
    fn MPI_T_category_get_categories(cat_index: c_int, len: c_int, indices: *mut c_int)
        -> c_int => PMPI_T_category_get_categories
    {
        call("MPI_T_category_get_categories", || {
            index(cat_index, CATEGORIES.len(), "category")?;
            write_indices(0..0, len, indices)
        })
    }

    /// Events of a category: none.
    fn MPI_T_category_get_events(cat_index: c_int, len: c_int, indices: *mut c_int) -> c_int
        => PMPI_T_category_get_events
    {
        call("MPI_T_category_get_events", || {
            index(cat_index, CATEGORIES.len(), "category")?;
            write_indices(0..0, len, indices)
        })
    }

    /// The number of events of a category: 0.
    fn MPI_T_category_get_num_events(cat_index: c_int, num_events: *mut c_int) -> c_int
        => PMPI_T_category_get_num_events
    {
        call("MPI_T_category_get_num_events", || {
            index(cat_index, CATEGORIES.len(), "category")?;
            out(num_events, "num_events")?;
            put(num_events, 0);
            Ok(())
        })
    }

    /// How often categories changed: never (0).
    fn MPI_T_category_changed(update_number: *mut c_int) -> c_int
        => PMPI_T_category_changed
    {
        call("MPI_T_category_changed", || {
            out(update_number, "update_number")?;
            put(update_number, 0);
            Ok(())
        })
    }

    /// No enumeration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_enum_get_info(enumtype: usize, num: *mut c_int, name: *mut c_char,
        name_len: *mut c_int) -> c_int => PMPI_T_enum_get_info
    {
        let _ = (enumtype, num, name, name_len);
        call("MPI_T_enum_get_info", || Err(no_enum()))
    }

    /// No enumeration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_enum_get_item(enumtype: usize, indx: c_int, value: *mut c_int, name: *mut c_char,
        name_len: *mut c_int) -> c_int => PMPI_T_enum_get_item
    {
        let _ = (enumtype, indx, value, name, name_len);
        call("MPI_T_enum_get_item", || Err(no_enum()))
    }

    /// The number of event types: 0.
    fn MPI_T_event_get_num(num_events: *mut c_int) -> c_int => PMPI_T_event_get_num {
        call("MPI_T_event_get_num", || {
            out(num_events, "num_events")?;
            put(num_events, 0);
            Ok(())
        })
    }

    /// No event exists: `MPI_T_ERR_INVALID_NAME`.
    fn MPI_T_event_get_index(name: *const c_char, event_index: *mut c_int) -> c_int
        => PMPI_T_event_get_index
    {
        let _ = event_index;
        call("MPI_T_event_get_index", || {
            let n = in_str(name, "name")?;
            Err(t_err(MPI_T_ERR_INVALID_NAME, format!("no event named \"{n}\"")))
        })
    }

    /// No event exists: `MPI_T_ERR_INVALID_INDEX`.
    fn MPI_T_event_get_info(event_index: c_int, name: *mut c_char, name_len: *mut c_int,
        verbosity: *mut c_int, array_of_datatypes: *mut MPI_Datatype,
        array_of_displacements: *mut MPI_Aint, num_elements: *mut c_int, enumtype: *mut usize,
        info: *mut usize, desc: *mut c_char, desc_len: *mut c_int, bind: *mut c_int) -> c_int
        => PMPI_T_event_get_info
    {
        let _ = (name, name_len, verbosity, array_of_datatypes, array_of_displacements,
                 num_elements, enumtype, info, desc, desc_len, bind);
        call("MPI_T_event_get_info", || {
            index(event_index, 0, "event").map(drop)
        })
    }

    /// No event exists: `MPI_T_ERR_INVALID_INDEX`.
    fn MPI_T_event_handle_alloc(event_index: c_int, obj_handle: *mut c_void, info: usize,
        event_registration: *mut usize) -> c_int => PMPI_T_event_handle_alloc
    {
        let _ = (obj_handle, info, event_registration);
        call("MPI_T_event_handle_alloc", || index(event_index, 0, "event").map(drop))
    }

    /// No registration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_handle_free(event_registration: usize, user_data: *mut c_void,
        free_cb_function: *mut c_void) -> c_int => PMPI_T_event_handle_free
    {
        let _ = (event_registration, user_data, free_cb_function);
        call("MPI_T_event_handle_free", || Err(no_event()))
    }

    /// No registration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_handle_get_info(event_registration: usize, info_used: *mut usize) -> c_int
        => PMPI_T_event_handle_get_info
    {
        let _ = (event_registration, info_used);
        call("MPI_T_event_handle_get_info", || Err(no_event()))
    }

    /// No registration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_handle_set_info(event_registration: usize, info: usize) -> c_int
        => PMPI_T_event_handle_set_info
    {
        let _ = (event_registration, info);
        call("MPI_T_event_handle_set_info", || Err(no_event()))
    }

    /// No registration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_register_callback(event_registration: usize, cb_safety: c_int, info: usize,
        user_data: *mut c_void, event_cb_function: *mut c_void) -> c_int
        => PMPI_T_event_register_callback
    {
        let _ = (event_registration, cb_safety, info, user_data, event_cb_function);
        call("MPI_T_event_register_callback", || Err(no_event()))
    }

    /// No registration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_callback_get_info(event_registration: usize, cb_safety: c_int,
        info_used: *mut usize) -> c_int => PMPI_T_event_callback_get_info
    {
        let _ = (event_registration, cb_safety, info_used);
        call("MPI_T_event_callback_get_info", || Err(no_event()))
    }

    /// No registration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_callback_set_info(event_registration: usize, cb_safety: c_int, info: usize)
        -> c_int => PMPI_T_event_callback_set_info
    {
        let _ = (event_registration, cb_safety, info);
        call("MPI_T_event_callback_set_info", || Err(no_event()))
    }

    /// No registration exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_set_dropped_handler(event_registration: usize,
        dropped_cb_function: *mut c_void) -> c_int => PMPI_T_event_set_dropped_handler
    {
        let _ = (event_registration, dropped_cb_function);
        call("MPI_T_event_set_dropped_handler", || Err(no_event()))
    }

    /// No event instance exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_read(event_instance: usize, element_index: c_int, buffer: *mut c_void)
        -> c_int => PMPI_T_event_read
    {
        let _ = (event_instance, element_index, buffer);
        call("MPI_T_event_read", || Err(no_event()))
    }

    /// No event instance exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_copy(event_instance: usize, buffer: *mut c_void) -> c_int
        => PMPI_T_event_copy
    {
        let _ = (event_instance, buffer);
        call("MPI_T_event_copy", || Err(no_event()))
    }

    /// No event instance exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_get_timestamp(event_instance: usize, event_timestamp: *mut MPI_Count)
        -> c_int => PMPI_T_event_get_timestamp
    {
        let _ = (event_instance, event_timestamp);
        call("MPI_T_event_get_timestamp", || Err(no_event()))
    }

    /// No event instance exists: `MPI_T_ERR_INVALID_HANDLE`.
    fn MPI_T_event_get_source(event_instance: usize, source_index: *mut c_int) -> c_int
        => PMPI_T_event_get_source
    {
        let _ = (event_instance, source_index);
        call("MPI_T_event_get_source", || Err(no_event()))
    }

    /// The number of event sources: 1 (the clock of `MPI_Wtime`).
    fn MPI_T_source_get_num(num_sources: *mut c_int) -> c_int => PMPI_T_source_get_num {
        call("MPI_T_source_get_num", || {
            out(num_sources, "num_sources")?;
            put(num_sources, 1);
            Ok(())
        })
    }

    /// Describes source 0: `MPI_Wtime`'s monotonic clock in nanoseconds, ordered; `*info` is
    /// a new empty info (free it).
    fn MPI_T_source_get_info(source_index: c_int, name: *mut c_char, name_len: *mut c_int,
        desc: *mut c_char, desc_len: *mut c_int, ordering: *mut c_int,
        ticks_per_second: *mut MPI_Count, max_ticks: *mut MPI_Count, info: *mut usize) -> c_int
        => PMPI_T_source_get_info
    {
        call("MPI_T_source_get_info", || {
            index(source_index, 1, "source")?;
            put_str("nexar_wtime", name, name_len);
            put_str("The monotonic clock of MPI_Wtime, in nanoseconds", desc, desc_len);
            put(ordering, 1); // MPI_T_SOURCE_ORDERED
            put(ticks_per_second, 1_000_000_000);
            put(max_ticks, MPI_Count::MAX);
            if !info.is_null() {
                crate::comm::info::store_new(Vec::new(), info)?;
            }
            Ok(())
        })
    }

    /// The current time of source 0 in nanoseconds (`MPI_Wtime`'s clock).
    fn MPI_T_source_get_timestamp(source_index: c_int, timestamp: *mut MPI_Count) -> c_int
        => PMPI_T_source_get_timestamp
    {
        call("MPI_T_source_get_timestamp", || {
            index(source_index, 1, "source")?;
            out(timestamp, "timestamp")?;
            put(timestamp, crate::init::wtime_nanos());
            Ok(())
        })
    }
}
